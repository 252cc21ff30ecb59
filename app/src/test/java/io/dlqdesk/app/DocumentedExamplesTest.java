package io.dlqdesk.app;

import io.dlqdesk.app.DocumentedExamples.Assignment;
import io.dlqdesk.app.DocumentedExamples.Block;
import io.dlqdesk.app.DocumentedExamples.Example;
import io.dlqdesk.app.DocumentedExamples.NamedPath;
import io.dlqdesk.app.DocumentedExamples.Page;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** How DocumentedCommandsIT reads a page: which lines are examples, what status they document, which paths and links. */
class DocumentedExamplesTest {

    private static Page page(String text) {
        return new Page(Path.of("docs", "sample.md"), "docs/sample.md", text);
    }

    @Test
    void curlLinesOfBashBlocksAreExamplesWithTheStatusTheirCommentStartsWith() {
        Block block = DocumentedExamples.blocks(page("""
                Text with `curl -u a:b http://127.0.0.1:8080/api/v1/x` inline is no example.

                ```bash
                A=http://127.0.0.1:8080/api/v1
                ID=inc-…
                curl -u viewer:viewer-local "$A/incidents"   # 200 the list
                curl -u admin:admin-local -X PUT -d '{"reason":"a # in quotes is no comment"}' "$A/replay-switch"  # 200/409
                curl -u operator:operator-local "$A/replay-jobs" \\
                  -d '{"reason":"over",
                       "rate":50}'  # 201
                curl -u viewer:viewer-local "$A/incidents/$ID"     # the status is missing
                code=$(curl -s "$A/rollback-readiness")
                ./mvnw verify
                ```

                ```text
                curl http://127.0.0.1:8080/not-bash   # 200
                ```
                """)).get(0);

        List<Example> examples = block.steps().stream().filter(Example.class::isInstance).map(Example.class::cast).toList();
        assertThat(examples).extracting(Example::line).containsExactly(6, 7, 8, 11);
        assertThat(examples.get(0).expected()).containsExactly(200);
        assertThat(examples.get(1).expected()).containsExactly(200, 409);
        assertThat(examples.get(2).command()).endsWith("\"rate\":50}'  # 201").contains("\n");
        assertThat(examples.get(2).expected()).containsExactly(201);
        assertThat(examples.get(3).expected()).as("no status documented").isEmpty();
        assertThat(block.steps()).filteredOn(Assignment.class::isInstance)
                .containsExactly(new Assignment("A", "http://127.0.0.1:8080/api/v1"), new Assignment("ID", "inc-…"));
        assertThat(block.uses("ID")).isTrue();
        assertThat(block.uses("PAY")).isFalse();
    }

    @Test
    void pathsAreFoundWithTheirMethodAndPlaceholdersStandForAnyValue() {
        List<NamedPath> paths = DocumentedExamples.paths(page("""
                `GET /api/v1/incidents?status=OPEN`, `POST /api/v1/replay-jobs/{id}/pause\\|resume\\|cancel`, at
                <http://127.0.0.1:8080/console>; `https://desk.example/console/incidents/<id>`; see docs/console.md and
                app/target/console-screenshots/ (neither is a path of the service); `/actuator/health/readiness`.
                """));

        assertThat(paths).extracting(NamedPath::method, NamedPath::path).containsExactly(
                org.assertj.core.groups.Tuple.tuple("GET", "/api/v1/incidents"),
                org.assertj.core.groups.Tuple.tuple("POST", "/api/v1/replay-jobs/{id}/pause\\|resume\\|cancel"),
                org.assertj.core.groups.Tuple.tuple(null, "/console"),
                org.assertj.core.groups.Tuple.tuple(null, "/console/incidents/<id>"),
                org.assertj.core.groups.Tuple.tuple(null, "/actuator/health/readiness"));
        assertThat(DocumentedExamples.concrete("/api/v1/replay-jobs/{id}/pause\\|resume\\|cancel"))
                .containsExactly("/api/v1/replay-jobs/x/pause", "/api/v1/replay-jobs/x/resume", "/api/v1/replay-jobs/x/cancel");
        assertThat(DocumentedExamples.concrete("/api/v1/incidents/$ID/attempts/1/publish-unknown"))
                .containsExactly("/api/v1/incidents/x/attempts/1/publish-unknown");
        assertThat(DocumentedExamples.concrete("/console/**")).containsExactly("/console/**");
    }

    @Test
    void relativeLinksAndTheAnchorsOfHeadings() {
        Page page = page("""
                # Concepts
                ## DLQ ingest (`dlq-ingest`)
                See [ingest](#dlq-ingest-dlq-ingest), [the API](api.md#errors), ![a picture](console-overview.png) and
                [elsewhere](https://example.com/x).
                ```bash
                # not a heading, and [not a link](nowhere.md)
                ```
                """);

        assertThat(DocumentedExamples.relativeLinks(page)).containsExactly("#dlq-ingest-dlq-ingest", "api.md#errors", "console-overview.png");
        assertThat(DocumentedExamples.anchors(page)).containsExactly("concepts", "dlq-ingest-dlq-ingest");
    }
}
