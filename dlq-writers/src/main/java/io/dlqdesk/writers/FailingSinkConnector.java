package io.dlqdesk.writers;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A sink connector whose task fails on the records a test marks and reports them through KIP-610's errant record
 * reporter, so Connect's own runtime writes them to the connector's dead-letter queue (stage TASK_PUT). The rest it
 * "delivers" by appending them to a file the test reads. Config: {@value FailingSinkTask#MARKERS_FILE},
 * {@value FailingSinkTask#OUTPUT_FILE}.
 */
public final class FailingSinkConnector extends SinkConnector {

    static final ConfigDef CONFIG = new ConfigDef()
            .define(FailingSinkTask.MARKERS_FILE, ConfigDef.Type.STRING, ConfigDef.NO_DEFAULT_VALUE, ConfigDef.Importance.HIGH,
                    "Text file, one marker a line, re-read on every put(): a record whose value contains one is reported as failed.")
            .define(FailingSinkTask.OUTPUT_FILE, ConfigDef.Type.STRING, ConfigDef.NO_DEFAULT_VALUE, ConfigDef.Importance.HIGH,
                    "File each processed record is appended to: topic, partition, offset and value (UTF-8), tab-separated.");

    private Map<String, String> props;

    @Override
    public void start(Map<String, String> props) {
        CONFIG.parse(props); // a missing file setting fails the connector, not a task later
        this.props = Map.copyOf(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return FailingSinkTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Map<String, String>> configs = new ArrayList<>();
        for (int i = 0; i < maxTasks; i++) {
            configs.add(props);
        }
        return configs;
    }

    @Override
    public void stop() {
    }

    @Override
    public ConfigDef config() {
        return CONFIG;
    }

    @Override
    public String version() {
        return "0.1.0";
    }
}
