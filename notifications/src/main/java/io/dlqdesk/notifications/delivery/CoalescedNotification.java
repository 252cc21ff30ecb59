package io.dlqdesk.notifications.delivery;

import io.dlqdesk.notifications.Notification;
import io.dlqdesk.notifications.NotificationEvent;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one message that stands for a receiver's notifications of an event held back by its {@link RateLimit}: how many,
 * over which time, and the summaries of the first few. Its id ({@code coalesced:<event>:<first held row>}) is new for
 * every such message and the same for every try of it.
 */
final class CoalescedNotification {

    static final String ID_PREFIX = "coalesced:";
    /** How many of the held notifications the message names. */
    static final int NAMED = 3;

    private CoalescedNotification() {
    }

    /** {@code first} are the summaries of the oldest held ones (up to {@link #NAMED} are shown). */
    static Notification of(NotificationEvent event, long firstRow, int count, List<String> first, Instant from, Instant until, RateLimit rate) {
        List<String> named = first.subList(0, Math.min(NAMED, first.size()));
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("coalesced", count);
        facts.put("rateLimit", rate.limit());
        facts.put("rateWindow", rate.window().toString());
        facts.put("firstAt", from.toString());
        facts.put("lastAt", until.toString());
        facts.put("first", named);
        String summary = count + " more " + event.many() + " in the last " + rate.windowText() + ", not sent one by one (at most "
                + rate.limit() + " per " + rate.windowText() + " are); the first: " + String.join("; ", named)
                + (count > named.size() ? "; …" : "") + ". The console lists them all.";
        return new Notification(ID_PREFIX + event.wireName() + ":" + firstRow, event, until, summary, null, facts);
    }
}
