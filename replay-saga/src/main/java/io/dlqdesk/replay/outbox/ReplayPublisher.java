package io.dlqdesk.replay.outbox;

import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.ReplayHeaders;
import io.dlqdesk.replay.edit.EditedContent;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Sends a replay: the source record's key, value, timestamp and headers, byte for byte, to its
 * original topic and partition, plus the four correlation headers and, with a signing key, their
 * signature ({@link ReplaySigner}). {@code acks=all} and an idempotent producer; a send that does not
 * complete within the bound is a failed try.
 */
public class ReplayPublisher implements AutoCloseable {

    private final Map<String, Object> producerConfig;
    private final Duration sendTimeout;
    private final Set<String> deniedHeaders;
    private final ReplaySigner signer;
    private KafkaProducer<byte[], byte[]> producer;

    /** A publisher whose replays are unsigned, so every consumer group processes them (tests that need no consumer library). */
    public ReplayPublisher(String bootstrapServers, String clientId, Duration sendTimeout, int maxRequestSize, Set<String> deniedHeaders) {
        this(bootstrapServers, clientId, sendTimeout, maxRequestSize, deniedHeaders, ReplaySigner.unsigned());
    }

    /**
     * @param deniedHeaders header names not copied to the replay (matched ignoring case), e.g. tracing
     *                      headers that would tie the replay to the original trace
     * @param signer        signs the correlation headers to the record; {@link ReplaySigner#unsigned()} adds no signature
     */
    public ReplayPublisher(String bootstrapServers, String clientId, Duration sendTimeout, int maxRequestSize, Set<String> deniedHeaders,
                           ReplaySigner signer) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, maxRequestSize);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        int timeoutMs = (int) sendTimeout.toMillis();
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeoutMs);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, timeoutMs);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs);
        this.producerConfig = Map.copyOf(config);
        this.sendTimeout = sendTimeout;
        this.deniedHeaders = deniedHeaders.stream().map(name -> name.toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
        this.signer = Objects.requireNonNull(signer, "signer");
    }

    /** The replay of {@code source} for {@code row}, not sent yet. */
    public ProducerRecord<byte[], byte[]> replayOf(ConsumerRecord<byte[], byte[]> source, OutboxRow row) {
        return replayOf(source, row, null);
    }

    /**
     * The replay of {@code source} for {@code row} with an approved edit's value and headers in place of the source record's
     * ({@code edit} null: none); key, timestamp and location stay the source record's.
     */
    public ProducerRecord<byte[], byte[]> replayOf(ConsumerRecord<byte[], byte[]> source, OutboxRow row, EditedContent edit) {
        RecordHeaders headers = new RecordHeaders();
        for (Header header : edit == null ? source.headers() : edit.replacing(source.headers())) {
            if (copied(header.key())) {
                headers.add(header.key(), header.value());
            }
        }
        byte[] value = edit == null ? source.value() : edit.value();
        headers.add(ReplayHeaders.ROOT_INCIDENT_ID, utf8(row.incidentId().value()));
        headers.add(ReplayHeaders.ATTEMPT, utf8(Integer.toString(row.attempt())));
        headers.add(ReplayHeaders.OWNER, utf8(row.owner()));
        headers.add(ReplayHeaders.TARGET_GROUP, utf8(row.targetGroup()));
        // last, over the headers just set: consumers skip a replay for another group only when this verifies
        signer.signature(row.source().topic(), row.source().partition(), source.key(), value, headers)
                .ifPresent(signature -> headers.add(ReplayHeaders.SIGNATURE, utf8(signature)));
        // a record without a timestamp (message format v0) reports -1: let the broker assign one then
        Long timestamp = source.timestamp() < 0 ? null : source.timestamp();
        return new ProducerRecord<>(row.source().topic(), row.source().partition(), timestamp, source.key(), value, headers);
    }

    /** Sends and waits for the broker's acknowledgement; where it landed. */
    public RecordLocation send(ProducerRecord<byte[], byte[]> record) throws PublishFailedException {
        Sent sent = sendAll(List.of(record)).get(0);
        if (sent instanceof Sent.Failed failed) {
            throw failed.error();
        }
        return ((Sent.Acknowledged) sent).at();
    }

    /** What became of one record of {@link #sendAll}. */
    public sealed interface Sent {
        record Acknowledged(RecordLocation at) implements Sent {
        }

        /** No acknowledgement: the record may still have reached the broker. */
        record Failed(PublishFailedException error) implements Sent {
        }
    }

    /**
     * Sends every record, then waits for all acknowledgements (the idempotent producer keeps each partition's
     * records in order and never writes one twice); one outcome per record, in order. After any failure the
     * producer is replaced once all outcomes are in: never reuse one in an unknown state.
     */
    public synchronized List<Sent> sendAll(List<ProducerRecord<byte[], byte[]>> records) {
        List<Future<RecordMetadata>> futures = new ArrayList<>(records.size());
        List<Sent> outcomes = new ArrayList<>(records.size());
        for (ProducerRecord<byte[], byte[]> record : records) {
            try {
                futures.add(producer().send(record));
            } catch (RuntimeException e) {
                futures.add(CompletableFuture.failedFuture(e));
            }
        }
        long deadline = System.nanoTime() + sendTimeout.toNanos() + TimeUnit.SECONDS.toNanos(1);
        boolean failed = false;
        for (Future<RecordMetadata> future : futures) {
            try {
                RecordMetadata metadata = future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                outcomes.add(new Sent.Acknowledged(new RecordLocation(metadata.topic(), metadata.partition(), metadata.offset())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failed = true;
                outcomes.add(new Sent.Failed(new PublishFailedException("interrupted while waiting for the broker", e)));
            } catch (ExecutionException | TimeoutException | RuntimeException e) {
                failed = true;
                Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
                outcomes.add(new Sent.Failed(new PublishFailedException(cause.getClass().getSimpleName() + ": " + cause.getMessage(), cause)));
            }
        }
        if (failed) {
            reset();
        }
        return outcomes;
    }

    private boolean copied(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        // the replay's own headers are set fresh; Spring's DLT headers belong to DLQ records only
        return !deniedHeaders.contains(lower) && !lower.startsWith("dlq-incident-") && !lower.startsWith("kafka_dlt-");
    }

    private KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            producer = new KafkaProducer<>(producerConfig, new ByteArraySerializer(), new ByteArraySerializer());
        }
        return producer;
    }

    private void reset() {
        if (producer != null) {
            producer.close(Duration.ZERO);
            producer = null;
        }
    }

    @Override
    public synchronized void close() {
        if (producer != null) {
            producer.close(sendTimeout);
            producer = null;
        }
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** A try that did not end in an acknowledgement; the record may still have reached the broker. */
    public static class PublishFailedException extends Exception {
        PublishFailedException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
