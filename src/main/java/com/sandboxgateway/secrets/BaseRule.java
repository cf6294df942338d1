package com.sandboxgateway.secrets;

import java.util.List;

/** What every rule is besides its detection: an id, a kind of finding and the triggers that gate it. */
abstract class BaseRule implements Rule {

    private final String id;
    private final Finding.Kind kind;
    private final List<Trigger> triggers;

    BaseRule(String id, Finding.Kind kind, Trigger... triggers) {
        this.id = id;
        this.kind = kind;
        this.triggers = List.of(triggers);
    }

    @Override
    public final String id() {
        return id;
    }

    @Override
    public final Finding.Kind kind() {
        return kind;
    }

    @Override
    public final List<Trigger> triggers() {
        return triggers;
    }
}
