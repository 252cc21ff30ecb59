package io.dlqdesk.notifications.delivery;

import io.dlqdesk.notifications.NotificationProperties.Webhook;
import io.dlqdesk.periodic.PeriodicTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.BackOffExecution;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * Sends one receiver's deliveries, one at a time, on a thread of its own: another receiver's slowness or failures
 * never reach it, and it never touches ingest, replay or the event processors. A failed try backs the receiver off
 * (Spring's {@link BackOff}, reset by the next success) and is recorded on its row, which goes behind the receiver's
 * other due rows; the first failed try after the retry window gives the row up, logged at ERROR and counted. A body the
 * receiver refuses (4xx but 408 and 429: no retry changes that answer) is given up at once, the same visible way. A try
 * cut short by shutdown is no try: its row is given back as it was. Each round first turns the receiver's held
 * notifications whose rate window ended into one message ({@link Deliveries#coalesceDue}). Everything here but its rounds is owned by their thread.
 */
final class WebhookSender {

    private static final Logger log = LoggerFactory.getLogger(WebhookSender.class);
    private static final int MAX_ANSWER_IN_ERROR = 200;

    /** How the senders run: the poll interval when nothing is due, the backoff after a failed try, the retry window. */
    record Settings(Duration pollInterval, BackOff backOff, Duration retryWindow) {
    }

    private final Webhook webhook;
    private final Deliveries deliveries;
    private final NotificationMetrics metrics;
    private final Settings settings;
    private final Clock clock;
    private final HttpClient http;
    private final Duration lease;
    private final PeriodicTask rounds;
    private BackOffExecution backOff;
    private boolean failing;
    private boolean databaseFailing;

    WebhookSender(Webhook webhook, Deliveries deliveries, NotificationMetrics metrics, Settings settings, Clock clock) {
        this.webhook = webhook;
        this.deliveries = deliveries;
        this.metrics = metrics;
        this.settings = settings;
        this.clock = clock;
        this.http = HttpClient.newBuilder().connectTimeout(webhook.timeout()).followRedirects(HttpClient.Redirect.NEVER).build();
        // longer than any one try, so a row is never taken by a second sender while the first still waits for the answer
        this.lease = webhook.timeout().multipliedBy(2).plusSeconds(30);
        this.rounds = PeriodicTask.named("webhook-" + webhook.name() + "-").firstAfter(Duration.ZERO).every(settings.pollInterval())
                .runsPaced(this::round);
    }

    void start() {
        rounds.start();
    }

    /** Interrupts a try under way; {@link #awaitStopped} waits for its row to be given back. */
    void stop() {
        rounds.stop();
    }

    boolean awaitStopped(Duration bound) throws InterruptedException {
        return rounds.awaitStopped(bound);
    }

    /** One round; returns how long to wait before the next. */
    private Duration round() {
        Duration wait = settings.pollInterval();
        try {
            wait = sendDue();
            if (databaseFailing) {
                log.info("webhook {}: deliveries can be read and recorded again", webhook.name());
            }
            databaseFailing = false;
        } catch (RuntimeException e) { // the database away: the rows stay, try again later; said once, not every round
            if (!databaseFailing) {
                log.warn("webhook {}: could not read or record deliveries, trying again every {}: {}", webhook.name(), wait, e.toString());
            }
            databaseFailing = true;
        } catch (Throwable e) { // an Error too: logged with the webhook's name, and the next round comes after this round's wait
            log.error("webhook {}: sender round failed", webhook.name(), e);
        }
        return wait;
    }

    /** Sends due rows until none is due or one fails; returns how long to wait before the next round. */
    private Duration sendDue() {
        coalesceDue();
        while (rounds.isRunning()) {
            Optional<Deliveries.Claimed> next = deliveries.claimNext(webhook.name(), lease);
            if (next.isEmpty()) {
                return settings.pollInterval();
            }
            Deliveries.Claimed delivery = next.get();
            Answer answer = post(delivery);
            if (answer == Answer.CUT_SHORT) {
                giveBack(delivery);
                return settings.pollInterval();
            }
            if (answer.delivered()) {
                deliveries.delivered(delivery.id());
                metrics.delivered(webhook.name());
                if (failing) {
                    log.info("webhook {} accepts deliveries again", webhook.name());
                }
                failing = false;
                backOff = null;
                continue;
            }
            metrics.failedTry(webhook.name());
            if (answer.refused()) { // the receiver is there and answers: no backoff, the next row goes now
                giveUp(delivery, answer.error(), "the receiver refused it, which no retry changes");
                continue;
            }
            if (delivery.age().compareTo(settings.retryWindow()) >= 0) {
                giveUp(delivery, answer.error(), "after " + (delivery.tries() + 1) + " tries over " + delivery.age() + " (retry window "
                        + settings.retryWindow() + ")");
                continue;
            }
            if (backOff == null) {
                backOff = settings.backOff().start();
            }
            Duration wait = Duration.ofMillis(backOff.nextBackOff());
            deliveries.retryLater(delivery.id(), answer.error(), wait);
            if (!failing) {
                log.warn("webhook {}: delivery of {} ({}) failed, retrying with backoff (next in {}): {}", webhook.name(), delivery.notificationId(),
                        delivery.event(), wait, answer.error());
            }
            failing = true;
            return wait;
        }
        return settings.pollInterval();
    }

    /** Held notifications whose rate window ended become one message, due now: counted once it is written. */
    private void coalesceDue() {
        int counted = deliveries.coalesceDue(webhook.name());
        if (counted > 0) {
            metrics.coalesced(webhook.name(), counted);
            log.info("webhook {}: {} notifications over its rate limit are counted in one message", webhook.name(), counted);
        }
    }

    private void giveUp(Deliveries.Claimed delivery, String error, String why) {
        deliveries.gaveUp(delivery.id(), error);
        metrics.gaveUp(webhook.name());
        log.error("webhook {} GAVE UP on notification {} ({}) {}: {}", webhook.name(), delivery.notificationId(), delivery.event(), why, error);
    }

    /** The row as it was before the claim, due now, so any instance may send it; failing that, its lease ends on its own. */
    private void giveBack(Deliveries.Claimed delivery) {
        boolean interrupted = Thread.interrupted(); // the connection pool refuses an interrupted thread that has to wait
        try {
            deliveries.giveBack(delivery.id());
        } catch (RuntimeException e) {
            log.info("webhook {}: notification {} is due again when its lease ends (within {}): {}", webhook.name(), delivery.notificationId(), lease,
                    e.toString());
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private Answer post(Deliveries.Claimed delivery) {
        byte[] body = delivery.body().getBytes(StandardCharsets.UTF_8);
        long timestamp = clock.instant().getEpochSecond();
        HttpRequest.Builder request = HttpRequest.newBuilder(webhook.url()).timeout(webhook.timeout())
                .header("Content-Type", "application/json; charset=utf-8")
                .header("User-Agent", "dlq-incident-desk")
                .header("X-DlqDesk-Event", delivery.event())
                .header("X-DlqDesk-Delivery", delivery.notificationId())
                .header(WebhookSignature.TIMESTAMP_HEADER, Long.toString(timestamp))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (webhook.secret() != null) {
            request.header(WebhookSignature.SIGNATURE_HEADER, WebhookSignature.sign(webhook.secret(), timestamp, body));
        }
        try {
            HttpResponse<String> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            int status = answer.statusCode();
            if (status / 100 == 2) {
                return Answer.DELIVERED;
            }
            String text = answer.body() == null ? "" : answer.body();
            String error = "HTTP " + status + (text.isBlank() ? "" : ": " + (text.length() > MAX_ANSWER_IN_ERROR
                    ? text.substring(0, MAX_ANSWER_IN_ERROR) + "…" : text));
            // 408 (it timed out reading) and 429 (it throttles) say "later"; any other 4xx is about this request itself
            return status / 100 == 4 && status != 408 && status != 429 ? Answer.refused(error) : Answer.failed(error);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Answer.CUT_SHORT;
        } catch (IOException e) { // an interrupt may also end the exchange as an I/O error (ClosedByInterruptException)
            return rounds.isRunning() && !Thread.currentThread().isInterrupted() ? Answer.failed(e.toString()) : Answer.CUT_SHORT;
        }
    }

    /** What a try came to: 2xx, a failure to retry, a refusal of the body, or nothing at all (cut short by shutdown). */
    private record Answer(boolean delivered, boolean refused, String error) {

        static final Answer DELIVERED = new Answer(true, false, null);
        static final Answer CUT_SHORT = new Answer(false, false, "cut short: the service is stopping");

        static Answer failed(String error) {
            return new Answer(false, false, error);
        }

        static Answer refused(String error) {
            return new Answer(false, true, error);
        }
    }
}
