package io.dlqdesk.projections;

import org.springframework.boot.autoconfigure.domain.EntityScan;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.jpa.repository.config.EnableJpaRepositories;

/** The read models: their entities, repositories and event-processing components. */
@Configuration(proxyBeanMethods = false)
@ComponentScan
@EntityScan
@EnableJpaRepositories
public class ProjectionsConfiguration {
}
