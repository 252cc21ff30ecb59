package io.dlqdesk.testsupport;

import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Gives an integration test class a real MySQL-compatible database of its own and a real Kafka
 * broker (see {@link TestInfrastructure} for how they are chosen).
 * <ul>
 *   <li>Test methods and constructors may declare {@link TestInfrastructure}, {@link TestDatabase},
 *       {@link DatabaseServer} or {@link KafkaBroker} parameters.</li>
 *   <li>On a Spring test class, {@code spring.datasource.*} and {@code spring.kafka.bootstrap-servers}
 *       point at them.</li>
 * </ul>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(RealInfrastructureExtension.class)
public @interface RealInfrastructure {
}
