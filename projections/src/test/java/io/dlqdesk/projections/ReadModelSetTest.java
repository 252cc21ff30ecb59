package io.dlqdesk.projections;

import org.axonframework.eventhandling.AnnotationEventHandlerAdapter;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bulk rebuild swaps exactly the tables a set names: so they must be exactly the tables its groups' reset handlers empty
 * (what the processor's own rebuild starts from). A table a projection gains without joining its set fails here.
 */
class ReadModelSetTest {

    private static final Pattern DELETE_ALL = Pattern.compile("DELETE FROM (\\w+)");

    @Test
    void eachSetNamesTheTablesItsResetHandlersEmpty() {
        for (ReadModelSet set : ReadModelSet.all()) {
            List<String> emptied = new ArrayList<>();
            JdbcTemplate recording = new JdbcTemplate() {
                @Override
                public int update(String sql) {
                    Matcher delete = DELETE_ALL.matcher(sql);
                    if (delete.matches()) {
                        emptied.add(delete.group(1));
                    }
                    return 0;
                }
            };
            set.groups().values().forEach(handlers -> new AnnotationEventHandlerAdapter(handlers.apply(recording)).prepareReset());
            assertThat(set.tables()).as(set.processor()).containsExactlyInAnyOrderElementsOf(emptied);
        }
    }

    @Test
    void setsAreFoundByTheirProcessorAndNoTableIsInTwo() {
        assertThat(ReadModelSet.of(ProjectionsConfiguration.INCIDENT_READ_MODELS)).get().extracting(ReadModelSet::groups)
                .satisfies(groups -> assertThat(groups).containsOnlyKeys("incident-summary", "incident-history", "incident-as-of"));
        assertThat(ReadModelSet.of("no-such-processor")).isEmpty();
        List<String> all = ReadModelSet.all().stream().flatMap(set -> set.tables().stream()).toList();
        assertThat(all).doesNotHaveDuplicates();
    }
}
