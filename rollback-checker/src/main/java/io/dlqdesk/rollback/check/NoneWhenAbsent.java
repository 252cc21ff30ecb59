package io.dlqdesk.rollback.check;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import java.io.IOException;

/** An observed value that does not exist (no committed offset, no decision yet) is reported as {@code "none"}, never as null. */
final class NoneWhenAbsent extends StdSerializer<Object> {

    NoneWhenAbsent() {
        super(Object.class);
    }

    @Override
    public void serialize(Object absent, JsonGenerator json, SerializerProvider provider) throws IOException {
        json.writeString("none");
    }
}
