package io.dlqdesk.projections.job;

import java.util.List;

public record ReplayJobPage(List<ReplayJobView> items, int page, int size, long total) {
}
