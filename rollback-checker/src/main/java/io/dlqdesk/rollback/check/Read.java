package io.dlqdesk.rollback.check;

/** One read of the database or the brokers: its value, or why there is none (then the conditions that need it are UNKNOWN). */
record Read<T>(T value, String error) {

    static <T> Read<T> of(T value) {
        return new Read<>(value, null);
    }

    static <T> Read<T> failed(String error) {
        return new Read<>(null, error);
    }

    boolean failed() {
        return error != null;
    }

    /** A failure as an explanation shows it: its type and message, and its root cause when there is one. */
    static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root == failure ? String.valueOf(failure.getMessage())
                : failure.getMessage() + " (cause: " + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
        return failure.getClass().getSimpleName() + ": " + message;
    }
}
