package io.dlqdesk.app;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * The bound of a graceful shutdown. A SIGTERM closes the context: ingest drains and leaves its group, the replay rounds
 * finish, the web server lets requests end, the processors release their claims. A part that hangs (a database that
 * stopped answering) must not hold the process past the orchestrator's grace period, whose SIGKILL would come with no
 * word of why: at {@code dlqdesk.instances.shutdown-timeout} after the close began, the process says what it was still
 * doing and halts. Nothing is lost by that (every write is idempotent and uncommitted work comes again); the others only
 * take over after the claims time out. Only a close of the JVM's shutdown is bounded, and only while this context is still
 * closing: a context closed by its embedder (a test), or one that closed in time while others in the JVM go on, is not the
 * process's to end.
 */
final class ShutdownDeadline implements ApplicationListener<ContextClosedEvent> {

    private static final Logger log = LoggerFactory.getLogger(ShutdownDeadline.class);

    private final ApplicationContext context;
    private final Duration timeout;
    private final BooleanSupplier jvmShuttingDown;
    private final BooleanSupplier stillClosing;
    private final Runnable halt;

    ShutdownDeadline(ConfigurableApplicationContext context, Duration timeout) {
        this(context, timeout, ShutdownDeadline::jvmShuttingDown, context::isActive, () -> Runtime.getRuntime().halt(1));
    }

    ShutdownDeadline(ApplicationContext context, Duration timeout, BooleanSupplier jvmShuttingDown, BooleanSupplier stillClosing,
                     Runnable halt) {
        this.context = context;
        this.timeout = timeout;
        this.jvmShuttingDown = jvmShuttingDown;
        this.stillClosing = stillClosing;
        this.halt = halt;
    }

    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        if (event.getApplicationContext() != context || !jvmShuttingDown.getAsBoolean()) {
            return;
        }
        log.info("shutting down: draining for at most {} (dlqdesk.instances.shutdown-timeout)", timeout);
        Thread watchdog = new Thread(this::haltAtTheDeadline, "shutdown-deadline");
        watchdog.setDaemon(true); // the JVM ends as soon as the close does, the watchdog with it
        watchdog.start();
    }

    private void haltAtTheDeadline() {
        try {
            Thread.sleep(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (!stillClosing.getAsBoolean()) {
            return;
        }
        log.error("graceful shutdown still running after {} (dlqdesk.instances.shutdown-timeout); halting. Still running:\n{}",
                timeout, busyThreads());
        halt.run();
    }

    private static String busyThreads() {
        StringBuilder threads = new StringBuilder();
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            if (!thread.isDaemon() && thread != Thread.currentThread() && stack.length > 0) {
                threads.append("  ").append(thread.getName()).append(" at ").append(stack[0]).append('\n');
            }
        });
        return threads.toString();
    }

    /** A hook can be added until the JVM's shutdown begins. */
    private static boolean jvmShuttingDown() {
        Thread probe = new Thread(() -> { });
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException e) {
            return true;
        }
    }
}
