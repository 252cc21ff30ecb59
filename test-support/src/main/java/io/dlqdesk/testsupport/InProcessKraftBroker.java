package io.dlqdesk.testsupport;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A real single-node KRaft Kafka broker (combined broker and controller) running inside this JVM,
 * listening on loopback only. The log directory and the ports stay the same across
 * {@link #stop()} and {@link #start()}, so clients reconnect to the same address and find their data.
 */
public final class InProcessKraftBroker implements KafkaBroker {

    private static final String CONTROLLER_LISTENER = "CONTROLLER";
    private static final int NODE_ID = 1;

    private final Path logDir;
    private final int port;
    private final int controllerPort;
    private final Map<String, Object> extraConfig;
    private KafkaRaftServer server;

    /**
     * @param logDir kept across restarts; formatted on first use
     * @param port   loopback port for clients, or 0 for a free one
     */
    public InProcessKraftBroker(Path logDir, int port, Map<String, Object> extraConfig) {
        this.logDir = logDir.toAbsolutePath().normalize();
        this.port = port == 0 ? LoopbackPorts.free() : port;
        this.controllerPort = LoopbackPorts.free();
        this.extraConfig = Map.copyOf(extraConfig);
    }

    public InProcessKraftBroker(Path logDir, int port) {
        this(logDir, port, Map.of());
    }

    @Override
    public String description() {
        return "in-process KRaft Kafka broker on " + bootstrapServers() + ", logs in " + logDir;
    }

    @Override
    public String bootstrapServers() {
        return LoopbackPorts.HOST + ":" + port;
    }

    @Override
    public boolean restartable() {
        return true;
    }

    @Override
    public synchronized void start() {
        if (server != null) {
            return;
        }
        KafkaConfig config = new KafkaConfig(config(), false);
        format();
        KafkaRaftServer started = new KafkaRaftServer(config, Time.SYSTEM);
        started.startup();
        server = started;
    }

    @Override
    public synchronized void stop() {
        if (server == null) {
            return;
        }
        server.shutdown();
        server.awaitShutdown();
        server = null;
    }

    private Map<String, Object> config() {
        Map<String, Object> config = new HashMap<>();
        config.put("process.roles", "broker,controller");
        config.put("node.id", NODE_ID);
        config.put("controller.quorum.voters", NODE_ID + "@" + LoopbackPorts.HOST + ":" + controllerPort);
        config.put("listeners", "PLAINTEXT://" + LoopbackPorts.HOST + ":" + port + "," + CONTROLLER_LISTENER + "://" + LoopbackPorts.HOST + ":" + controllerPort);
        config.put("advertised.listeners", "PLAINTEXT://" + LoopbackPorts.HOST + ":" + port);
        config.put("controller.listener.names", CONTROLLER_LISTENER);
        config.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        config.put("inter.broker.listener.name", "PLAINTEXT");
        config.put("log.dirs", logDir.toString());
        // a single node: internal topics cannot have more than one replica
        config.put("offsets.topic.replication.factor", "1");
        config.put("offsets.topic.num.partitions", "5");
        config.put("transaction.state.log.replication.factor", "1");
        config.put("transaction.state.log.min.isr", "1");
        config.put("group.initial.rebalance.delay.ms", "0");
        config.put("auto.create.topics.enable", "true");
        config.putAll(extraConfig);
        return config;
    }

    private void format() {
        if (Files.exists(logDir.resolve("meta.properties"))) {
            return; // formatted before: a restart, or a kept local data directory
        }
        try {
            Files.createDirectories(logDir);
            new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .setNodeId(NODE_ID)
                    .setClusterId(Uuid.randomUuid().toString())
                    .setControllerListenerName(CONTROLLER_LISTENER)
                    .setMetadataLogDirectory(logDir.toString())
                    .addDirectory(logDir.toString())
                    .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                    .run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot format KRaft storage in " + logDir, e);
        }
    }
}
