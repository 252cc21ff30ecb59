package io.dlqdesk.testsupport;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.test.context.junit.jupiter.SpringJUnitConfig;

import static org.assertj.core.api.Assertions.assertThat;

/** A Spring test class marked {@link RealInfrastructure} is pointed at its own database and the broker. */
@RealInfrastructure
@SpringJUnitConfig(SpringPropertiesIT.Empty.class)
class SpringPropertiesIT {

    @Configuration
    static class Empty {
    }

    @Autowired
    Environment environment;

    @Test
    void springPropertiesPointAtThisClassesDatabaseAndTheBroker(TestDatabase database, KafkaBroker broker) {
        assertThat(database.name()).startsWith("it_springpropertiesit_");
        assertThat(environment.getProperty("spring.datasource.url")).isEqualTo(database.jdbcUrl());
        assertThat(environment.getProperty("spring.datasource.username")).isEqualTo(database.username());
        assertThat(environment.getProperty("spring.kafka.bootstrap-servers")).isEqualTo(broker.bootstrapServers());
    }
}
