package io.dlqdesk.testsupport;

/**
 * A server someone else runs (CI, a developer's MySQL 8), given by environment variables. It is
 * not ours to stop: tests that need a restart are skipped with the reason.
 */
final class ExternalDatabase implements DatabaseServer {

    private final String host;
    private final int port;
    private final String username;
    private final String password;

    ExternalDatabase(String hostAndPort, String username, String password) {
        int colon = hostAndPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("expected host:port, got '" + hostAndPort + "'");
        }
        this.host = hostAndPort.substring(0, colon);
        this.port = Integer.parseInt(hostAndPort.substring(colon + 1));
        this.username = username;
        this.password = password;
    }

    @Override
    public String description() {
        return "MySQL-compatible server at " + host + ":" + port + " (from " + TestInfrastructure.ENV_DB + ")";
    }

    @Override
    public String serverUrl(String database) {
        return "jdbc:mysql://" + host + ":" + port + "/" + database + "?sslMode=PREFERRED&allowPublicKeyRetrieval=true";
    }

    @Override
    public String username() {
        return username;
    }

    @Override
    public String password() {
        return password;
    }
}
