package io.dlqdesk.kafka;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KafkaConnectionTest {

    @Test
    void aClientStartsFromTheBrokersAndItsOwnPrefixedId() {
        KafkaConnection connection = new KafkaConnection("b1:9092,b2:9092", "desk");

        assertThat(connection.clientConfig("ingest"))
                .containsEntry("bootstrap.servers", "b1:9092,b2:9092")
                .containsEntry("client.id", "desk-ingest")
                .hasSize(2);
    }

    @Test
    void eachCallGivesAMapOfItsOwn() {
        KafkaConnection connection = new KafkaConnection("b1:9092", "desk");

        connection.clientConfig("a").put("group.id", "x");

        assertThat(connection.clientConfig("a")).doesNotContainKey("group.id");
    }

    @Test
    void brokersAndPrefixAreRequired() {
        assertThatThrownBy(() -> new KafkaConnection(" ", "desk")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("spring.kafka.bootstrap-servers");
        assertThatThrownBy(() -> new KafkaConnection(null, "desk")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new KafkaConnection("b1:9092", "")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("spring.application.name");
    }
}
