package io.dlqdesk.testsupport;

/** A broker someone else runs, given by an environment variable; not ours to stop. */
final class ExternalKafkaBroker implements KafkaBroker {

    private final String bootstrapServers;

    ExternalKafkaBroker(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    @Override
    public String description() {
        return "Kafka at " + bootstrapServers + " (from " + TestInfrastructure.ENV_KAFKA + ")";
    }

    @Override
    public String bootstrapServers() {
        return bootstrapServers;
    }
}
