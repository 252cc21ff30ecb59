-- Rate limit and coalescing, per receiver and event (dlqdesk.notifications.rate-limit per rate-window): the first
-- rate-limit notifications of a window are PENDING as before; the rest are written HELD, due when their window ends,
-- and never sent alone: at that time one PENDING row per receiver and event sums them up (its notification_id starts
-- with "coalesced:") and they become COALESCED, naming it. HELD rows are not decided (never purged); COALESCED ones are.

-- One row per receiver and event: the window under way, by the database clock, and how many notifications it had.
-- An enqueue locks the row (so instances and processors count each notification once); a window ends rate-window
-- after its start, and the next notification starts the next one.
CREATE TABLE notification_rate_window (
    receiver      VARCHAR(64)  NOT NULL,
    event         VARCHAR(40)  NOT NULL,
    window_start  DATETIME(6)  NOT NULL,
    notifications INT          NOT NULL,
    PRIMARY KEY (receiver, event)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

ALTER TABLE notification_delivery
    -- the notification's summary, cut: a coalesced message names its first few
    ADD COLUMN summary        VARCHAR(300),
    -- on a COALESCED row, the notification_id of the message that counted it
    ADD COLUMN coalesced_into VARCHAR(200);
