package com.sandboxgateway.secrets;

/** What every rule is besides its detection: an id, a kind of finding and the trigger that gates it. */
abstract class BaseRule implements Rule {

    private final String id;
    private final Finding.Kind kind;
    private final Trigger trigger;

    BaseRule(String id, Finding.Kind kind, Trigger trigger) {
        this.id = id;
        this.kind = kind;
        this.trigger = trigger;
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
    public final Trigger trigger() {
        return trigger;
    }
}
