package io.dlqdesk.app;

import org.springframework.boot.SpringApplication;

/**
 * Runs the service for a newcomer with nothing installed but Java 17: README's first command
 * ({@code ./mvnw -pl app -am spring-boot:test-run}). Embedded servers start only for what is not
 * configured. It lives in the test sources so the production artifact carries none of them.
 */
public final class LocalDlqDeskApplication {

    private LocalDlqDeskApplication() {
    }

    public static void main(String[] args) {
        SpringApplication application = new SpringApplication(DlqDeskApplication.class);
        application.addListeners(new EmbeddedServersForLocalRun(), new DemoFailures());
        application.run(args);
    }
}
