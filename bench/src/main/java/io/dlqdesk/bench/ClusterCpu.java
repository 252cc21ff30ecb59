package io.dlqdesk.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the machine's CPU went during a phase of the instances bench, as cores busy on average and as µs per item: the
 * instances' JVMs together, the database's server process, this JVM (the in-process broker and the load), and the rest of
 * the machine (from Linux's {@code /proc/stat}: other people's work on a shared machine shows there).
 */
final class ClusterCpu {

    private final List<ServiceInstance> instances;
    private final Optional<ProcessHandle> database;
    private final long wall;
    private final long instancesCpu;
    private final long databaseCpu;
    private final long benchCpu;
    private final long machineBusy;

    private ClusterCpu(List<ServiceInstance> instances, Optional<ProcessHandle> database) {
        this.instances = instances;
        this.database = database;
        this.wall = System.nanoTime();
        this.instancesCpu = instancesCpu(instances);
        this.databaseCpu = database.map(ClusterCpu::cpuOf).orElse(0L);
        this.benchCpu = benchCpu();
        this.machineBusy = machineBusy();
    }

    static ClusterCpu start(List<ServiceInstance> instances, Optional<ProcessHandle> database) {
        return new ClusterCpu(instances, database);
    }

    /**
     * Waits, up to {@code longest}, for 3 s in which the rest of the machine (not the instances, the database or this JVM)
     * kept less than {@code cores} busy: on a shared machine a phase then starts while nobody else's work runs. Returns the
     * other processes' cores in the last 3 s.
     */
    static double awaitQuietMachine(List<ServiceInstance> instances, Optional<ProcessHandle> database, double cores, Duration longest)
            throws InterruptedException {
        long deadline = System.nanoTime() + longest.toNanos();
        long started = System.nanoTime();
        while (true) {
            ClusterCpu sample = start(instances, database);
            Thread.sleep(3_000);
            Object others = sample.per(1).get("other_processes_cores");
            double busy = others instanceof Number number ? number.doubleValue() : 0;
            if (busy < cores || System.nanoTime() > deadline) {
                if (System.nanoTime() - started > 4e9) {
                    System.out.printf(java.util.Locale.ROOT, "instances: waited %.0f s for the machine's other processes (%.2f cores now)%n",
                            (System.nanoTime() - started) / 1e9, busy);
                }
                return busy;
            }
        }
    }

    /** Since {@link #start}: cores busy on average by part, and the instances' and the database's µs per item. */
    Map<String, Object> per(long items) {
        double seconds = (System.nanoTime() - wall) / 1e9;
        long instancesUsed = instancesCpu(instances) - instancesCpu;
        long databaseUsed = database.map(ClusterCpu::cpuOf).orElse(0L) - databaseCpu;
        long benchUsed = benchCpu() - benchCpu;
        long machineUsed = machineBusy < 0 ? -1 : machineBusy() - machineBusy;
        Map<String, Object> per = new LinkedHashMap<>();
        per.put("seconds", round1(seconds));
        per.put("instances_cores", round2(instancesUsed / 1e9 / seconds));
        per.put("database_cores", database.isPresent() ? round2(databaseUsed / 1e9 / seconds) : null);
        per.put("broker_and_load_cores", round2(benchUsed / 1e9 / seconds));
        per.put("machine_cores_busy", machineUsed < 0 ? null : round2(machineUsed / 1e9 / seconds));
        per.put("other_processes_cores", machineUsed < 0 ? null
                : round2(Math.max(0, machineUsed - instancesUsed - databaseUsed - benchUsed) / 1e9 / seconds));
        per.put("instances_us_per_item", round1(instancesUsed / 1e3 / items));
        per.put("database_us_per_item", database.isPresent() ? round1(databaseUsed / 1e3 / items) : null);
        return per;
    }

    private static long instancesCpu(List<ServiceInstance> instances) {
        return instances.stream().mapToLong(ServiceInstance::cpuNanos).sum();
    }

    private static long cpuOf(ProcessHandle process) {
        return process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    private static long benchCpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** Nanoseconds every core of the machine was busy so far (user, nice, system, irq, softirq, steal), -1 off Linux. */
    private static long machineBusy() {
        try {
            String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = 0;
            for (int field : new int[] {1, 2, 3, 6, 7, 8}) {
                busy += Long.parseLong(cpu[field]);
            }
            return busy * 10_000_000L; // 100 ticks a second
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static double round1(double value) {
        return Math.round(value * 10) / 10.0;
    }

    private static double round2(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
