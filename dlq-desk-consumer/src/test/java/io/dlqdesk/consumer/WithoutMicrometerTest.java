package io.dlqdesk.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.Callable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Micrometer and Spring Kafka are optional: a service without them must be able to filter and count.
 * This module's classes are loaded again by a class loader that cannot see either.
 */
class WithoutMicrometerTest {

    @Test
    void aPlainConsumerFiltersAndCountsWhereMicrometerAndSpringAreAbsent() throws Exception {
        ClassLoader withoutThem = new HidingClassLoader(getClass().getClassLoader());

        assertThat(SkippedReplays.micrometerPresent(withoutThem)).isFalse();
        @SuppressWarnings("unchecked")
        Callable<Long> consumer = (Callable<Long>) withoutThem.loadClass(PlainConsumer.class.getName()).getDeclaredConstructor().newInstance();
        assertThat(consumer.call()).isEqualTo(1L);
    }

    /** Run inside the hiding class loader: what a plain consumer's code does. Uses no other test class (they use Micrometer). */
    public static final class PlainConsumer implements Callable<Long> {
        @Override
        public Long call() {
            ReplayKeys keys = ReplayKeys.of("k1", "an-example-secret-of-at-least-32-bytes");
            ReplayRecordFilter filter = new ReplayRecordFilter(TargetGroupFilter.forGroup("shipping", keys), SkippedReplays.create());
            filter.skip(replayFor("billing", keys));
            filter.skip(replayFor("shipping", keys));
            return filter.skipped().count();
        }

        private static ConsumerRecord<String, String> replayFor(String group, ReplayKeys keys) {
            RecordHeaders headers = new RecordHeaders();
            headers.add(ReplayHeaderNames.TARGET_GROUP, group.getBytes(StandardCharsets.UTF_8));
            headers.add(ReplayHeaderNames.SIGNATURE, keys.sign("k1", "orders", 0, "key".getBytes(StandardCharsets.UTF_8),
                    "value".getBytes(StandardCharsets.UTF_8), headers).getBytes(StandardCharsets.UTF_8));
            return new ConsumerRecord<>("orders", 0, 0L, 0L, TimestampType.CREATE_TIME, -1, -1, "key", "value", headers, Optional.empty());
        }
    }

    /** Defines this module's classes itself (main and test), hides Micrometer and Spring, delegates the rest. */
    private static final class HidingClassLoader extends ClassLoader {

        HidingClassLoader(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("io.micrometer.") || name.startsWith("org.springframework.")) {
                throw new ClassNotFoundException(name + " (hidden)");
            }
            if (!name.startsWith("io.dlqdesk.consumer.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    byte[] bytes = bytesOf(name);
                    loaded = defineClass(name, bytes, 0, bytes.length);
                }
                return loaded;
            }
        }

        private byte[] bytesOf(String className) throws ClassNotFoundException {
            try (InputStream in = getParent().getResourceAsStream(className.replace('.', '/') + ".class")) {
                if (in == null) {
                    throw new ClassNotFoundException(className);
                }
                return in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
