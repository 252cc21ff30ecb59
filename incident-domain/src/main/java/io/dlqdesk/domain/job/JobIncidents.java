package io.dlqdesk.domain.job;

import io.dlqdesk.domain.incident.IncidentId;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * A replay job's incidents and what the job knows of each, in a few bytes per incident: the job's snapshot holds all of it
 * and every round reads that snapshot. Each id is kept as the 16 bytes its hex digits stand for, sorted, and found by binary
 * search; at the same position, a byte of flags and the attempt the job requested (0: none yet). The manifest is appended in
 * parts while the job is created and sorted once it is complete, before anything is flagged.
 */
final class JobIncidents {

    static final int CLAIMED = 1;
    /** Requested or refused: the answer is recorded. */
    static final int DECIDED = 2;
    static final int RESULT_RECORDED = 4;
    static final int REFAILED = 8;

    private static final int ID_BYTES = 16;
    private static final int HEX_START = 4; // after "inc-"
    private static final HexFormat HEX = HexFormat.of();

    private int expected;
    private int size;
    private byte[] ids;
    private byte[] flags;
    private int[] attempts;
    private int claimed;
    private int decided;
    private int refailed;

    private JobIncidents() {
        // for the snapshot serializer
    }

    JobIncidents(int expected) {
        this.expected = expected;
        this.ids = new byte[expected * ID_BYTES];
    }

    /** The next part of the manifest; the last one sorts it. */
    void append(List<IncidentId> part) {
        if (size + part.size() > expected) {
            throw new IllegalStateException("the manifest holds " + expected + " incidents, not more");
        }
        for (IncidentId incident : part) {
            System.arraycopy(bytes(incident), 0, ids, size++ * ID_BYTES, ID_BYTES);
        }
        if (size == expected) {
            sort();
            flags = new byte[size];
            attempts = new int[size];
        }
    }

    int size() {
        return size;
    }

    /** The incident's position, or -1 when it is not in the manifest. */
    int indexOf(IncidentId incident) {
        if (flags == null) {
            throw new IllegalStateException("the manifest is not complete: " + size + " of " + expected);
        }
        byte[] key = bytes(incident);
        int low = 0;
        int high = size - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            int compared = Arrays.compareUnsigned(ids, middle * ID_BYTES, middle * ID_BYTES + ID_BYTES, key, 0, ID_BYTES);
            if (compared < 0) {
                low = middle + 1;
            } else if (compared > 0) {
                high = middle - 1;
            } else {
                return middle;
            }
        }
        return -1;
    }

    boolean has(int index, int flag) {
        return (flags[index] & flag) != 0;
    }

    void mark(int index, int flag) {
        if (has(index, flag)) {
            return;
        }
        flags[index] |= (byte) flag;
        switch (flag) {
            case CLAIMED -> claimed++;
            case DECIDED -> decided++;
            case REFAILED -> refailed++;
            default -> {
            }
        }
    }

    /** The attempt the job requested for the incident at {@code index}; 0 when none. */
    int attempt(int index) {
        return attempts[index];
    }

    void attempt(int index, int attempt) {
        attempts[index] = attempt;
    }

    int claimed() {
        return claimed;
    }

    int decided() {
        return decided;
    }

    int refailed() {
        return refailed;
    }

    private static byte[] bytes(IncidentId incident) {
        return HEX.parseHex(incident.value(), HEX_START, incident.value().length());
    }

    private void sort() {
        Integer[] order = new Integer[size];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(ids, a * ID_BYTES, a * ID_BYTES + ID_BYTES, ids, b * ID_BYTES, b * ID_BYTES + ID_BYTES));
        byte[] sorted = new byte[size * ID_BYTES];
        for (int i = 0; i < size; i++) {
            System.arraycopy(ids, order[i] * ID_BYTES, sorted, i * ID_BYTES, ID_BYTES);
        }
        ids = sorted;
    }
}
