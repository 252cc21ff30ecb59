package io.dlqdesk.testsupport;

import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

import java.util.List;
import java.util.Map;

/**
 * Points a Spring test context of a {@link RealInfrastructure} class at that class's database and
 * at the broker. The customizer is keyed by test class, so each class gets its own cached context.
 */
public final class RealInfrastructureContextCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass, List<ContextConfigurationAttributes> configAttributes) {
        boolean annotated = TestContextAnnotationUtils.hasAnnotation(testClass, RealInfrastructure.class)
                || MergedAnnotations.from(testClass, MergedAnnotations.SearchStrategy.TYPE_HIERARCHY).isPresent(RealInfrastructure.class);
        return annotated ? new Customizer(testClass.getName()) : null;
    }

    private record Customizer(String testClassName) implements ContextCustomizer {

        @Override
        public void customizeContext(org.springframework.context.ConfigurableApplicationContext context,
                                     org.springframework.test.context.MergedContextConfiguration mergedConfig) {
            TestInfrastructure infrastructure = TestInfrastructure.shared();
            TestDatabase database = infrastructure.databaseFor(mergedConfig.getTestClass());
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("realInfrastructure", Map.of(
                    "spring.datasource.url", database.jdbcUrl(),
                    "spring.datasource.username", database.username(),
                    "spring.datasource.password", database.password(),
                    "spring.kafka.bootstrap-servers", infrastructure.broker().bootstrapServers())));
        }
    }
}
