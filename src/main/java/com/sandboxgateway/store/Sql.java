package com.sandboxgateway.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * SQL text written with its positional parameters: each {@link #param} writes a {@code ?} and keeps its value, so text
 * and values stay in the same order however the pieces are put together. For statements whose shape changes with what
 * they carry (a group's rows), where named parameters would be made up, parsed and looked up on every run.
 */
public final class Sql {

    private final StringBuilder text;
    private final List<Object> params = new ArrayList<>();

    public Sql(String text) {
        this.text = new StringBuilder(text);
    }

    public Sql add(String more) {
        text.append(more);
        return this;
    }

    /** Appends another piece, its parameters after these. */
    public Sql add(Sql more) {
        text.append(more.text);
        params.addAll(more.params);
        return this;
    }

    public Sql param(Object value) {
        text.append('?');
        params.add(value);
        return this;
    }

    public String text() {
        return text.toString();
    }

    public List<Object> params() {
        return Collections.unmodifiableList(params);
    }
}
