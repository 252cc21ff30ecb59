package io.dlqdesk.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where the CPU goes during a phase, in microseconds per item: the bench JVM's threads grouped by what they
 * run (each event processor, the ingest loop and workers, the in-process broker, the load), the JVM's own
 * threads (garbage collector, JIT compiler, the rest), and the database's server process when it runs on
 * this machine.
 */
final class CpuWork {

    private static final Pattern PROCESSOR = Pattern.compile("^(?:WorkPackage|Coordinator|EventProcessor)\\[([^]]+)]");
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Map<Long, Long> threadsBefore;
    private final Map<String, Long> nativeBefore;
    private final long processBefore;
    private final Optional<ProcessHandle> database;
    private final long databaseBefore;

    private CpuWork(Optional<ProcessHandle> database) {
        this.threadsBefore = threadTimes();
        this.nativeBefore = nativeThreadTimes();
        this.processBefore = processCpu();
        this.database = database;
        this.databaseBefore = database.map(CpuWork::cpuOf).orElse(0L);
    }

    /** From now on; {@code database}: the database's server process, when it runs on this machine. */
    static CpuWork start(Optional<ProcessHandle> database) {
        return new CpuWork(database);
    }

    /** CPU µs per item since {@link #start}, by component, largest first; threads that ended meanwhile are not counted. */
    Map<String, Object> per(long items) {
        Map<String, Long> byComponent = new TreeMap<>();
        long threadsTotal = 0;
        for (Map.Entry<Long, Long> thread : threadTimes().entrySet()) {
            long used = thread.getValue() - threadsBefore.getOrDefault(thread.getKey(), 0L);
            ThreadInfo info = THREADS.getThreadInfo(thread.getKey());
            if (info == null || used <= 0) {
                continue;
            }
            byComponent.merge(component(info.getThreadName()), used, Long::sum);
            threadsTotal += used;
        }
        long process = processCpu() - processBefore;
        Map<String, Object> per = new LinkedHashMap<>();
        per.put("jvm_us_per_item", micros(process, items));
        database.ifPresent(db -> per.put("database_us_per_item", micros(cpuOf(db) - databaseBefore, items)));
        Map<String, Object> components = new LinkedHashMap<>();
        byComponent.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(entry -> components.put(entry.getKey(), micros(entry.getValue(), items)));
        Map<String, Long> nativeAfter = nativeThreadTimes();
        for (String vmPart : List.of("jvm: garbage collector", "jvm: JIT compiler")) {
            components.put(vmPart, micros(nativeAfter.getOrDefault(vmPart, 0L) - nativeBefore.getOrDefault(vmPart, 0L), items));
        }
        components.put("jvm: everything else", micros(Math.max(0, process - threadsTotal
                - nativeAfter.values().stream().mapToLong(Long::longValue).sum() + nativeBefore.values().stream().mapToLong(Long::longValue).sum()), items));
        per.put("jvm_threads_us_per_item", components);
        return per;
    }

    static String component(String thread) {
        Matcher processor = PROCESSOR.matcher(thread);
        if (processor.find()) {
            return "processor " + processor.group(1);
        }
        if (thread.startsWith("dlq-ingest")) {
            return "ingest loop and workers";
        }
        if (thread.startsWith("data-plane-kafka") || thread.startsWith("quorum-controller") || thread.startsWith("kafka-")
                && !thread.startsWith("kafka-producer") || thread.startsWith("raft-") || thread.startsWith("ReplicaFetcher")
                || thread.startsWith("ExpirationReaper") || thread.startsWith("broker-") || thread.startsWith("LogDirFailureHandler")) {
            return "broker (in-process)";
        }
        if (thread.startsWith("kafka-producer-network-thread") || thread.startsWith("kafka-coordinator")) {
            return "kafka clients";
        }
        if (thread.startsWith("EmbeddedEventStore")) {
            return "event store reader (shared by the processors)";
        }
        if (thread.contains("BenchMain") || thread.startsWith("baseline")) {
            return "bench load and baseline";
        }
        return "other threads";
    }

    private static Map<Long, Long> threadTimes() {
        Map<Long, Long> times = new HashMap<>();
        for (long id : THREADS.getAllThreadIds()) {
            long cpu = THREADS.getThreadCpuTime(id);
            if (cpu > 0) {
                times.put(id, cpu);
            }
        }
        return times;
    }

    /** The JVM's own threads (not Java threads) by what they do, from Linux's per-thread accounting; empty elsewhere. */
    private static Map<String, Long> nativeThreadTimes() {
        Map<String, Long> times = new HashMap<>();
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return times;
        }
        try (Stream<Path> threads = Files.list(tasks)) {
            threads.forEach(thread -> {
                try {
                    String name = Files.readString(thread.resolve("comm")).trim();
                    String part = name.startsWith("GC Thread") || name.startsWith("G1 ") ? "jvm: garbage collector"
                            : name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler") ? "jvm: JIT compiler" : null;
                    if (part != null) {
                        String stat = Files.readString(thread.resolve("stat"));
                        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
                        times.merge(part, ticks * 10_000_000L, Long::sum); // 100 ticks a second
                    }
                } catch (IOException | RuntimeException e) {
                    // the thread ended while it was read
                }
            });
        } catch (IOException e) {
            return times;
        }
        return times;
    }

    private static long processCpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static long cpuOf(ProcessHandle process) {
        return process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    private static double micros(long nanos, long items) {
        return Math.round(nanos / 100.0 / Math.max(1, items)) / 10.0;
    }
}
