package io.dlqdesk.testsupport;

import org.testcontainers.containers.MySQLContainer;
import org.testcontainers.utility.DockerImageName;

/** MySQL 8.4 in a Testcontainers container, used where a Docker engine answers. */
final class ContainerDatabase extends PausableContainer<MySQLContainer<?>> implements DatabaseServer {

    ContainerDatabase() {
        super(new MySQLContainer<>(DockerImageName.parse("mysql:8.4"))
                .withUsername("root")
                .withPassword("test")
                .withCommand("--max-connections=500"));
    }

    @Override
    public String description() {
        return "MySQL 8.4 container (Testcontainers) at " + container.getHost() + ":" + container.getMappedPort(MySQLContainer.MYSQL_PORT);
    }

    @Override
    public String serverUrl(String database) {
        return "jdbc:mysql://" + container.getHost() + ":" + container.getMappedPort(MySQLContainer.MYSQL_PORT)
                + "/" + database + "?sslMode=DISABLED&allowPublicKeyRetrieval=true";
    }

    @Override
    public String username() {
        return container.getUsername();
    }

    @Override
    public String password() {
        return container.getPassword();
    }
}
