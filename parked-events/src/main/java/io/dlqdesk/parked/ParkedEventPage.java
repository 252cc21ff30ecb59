package io.dlqdesk.parked;

import java.util.List;
import java.util.Map;

/** A page of parked events, oldest first, with how many each processing group holds in all. */
public record ParkedEventPage(List<ParkedEventView> items, int page, int size, long total, Map<String, Long> byProcessingGroup) {

    public ParkedEventPage {
        items = List.copyOf(items);
        byProcessingGroup = Map.copyOf(byProcessingGroup);
    }
}
