package io.dlqdesk.domain.job;

/** A command the replay job refused, with a stable code for the API's problem details. */
public class ReplayJobCommandRefusedException extends RuntimeException {

    private final ReplayJobId jobId;
    private final ReplayJobErrorCode code;

    public ReplayJobCommandRefusedException(ReplayJobId jobId, ReplayJobErrorCode code, String detail) {
        super(code + " (" + jobId + "): " + detail);
        this.jobId = jobId;
        this.code = code;
    }

    public ReplayJobId jobId() {
        return jobId;
    }

    public ReplayJobErrorCode code() {
        return code;
    }
}
