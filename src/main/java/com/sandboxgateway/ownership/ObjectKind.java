package com.sandboxgateway.ownership;

/** The kinds of upstream objects the gateway records an owner for. */
public enum ObjectKind {
    /** Deleted by the reaper once past its expiry. */
    FILE("File", true),
    /** Deleted by the reaper once idle too long, and listed to the admin. */
    CONTAINER("Container", true),
    CONTAINER_FILE("ContainerFile", false),
    RESPONSE("Response", false),
    /** An output item of a response, or an item added to a conversation. */
    ITEM("Item", false),
    CONVERSATION("Conversation", false),
    /** A skill of {@code /v1/skills}; its versions are reached through it. */
    SKILL("Skill", false);

    private final String displayName;
    private final boolean reaped;

    ObjectKind(String displayName, boolean reaped) {
        this.displayName = displayName;
        this.reaped = reaped;
    }

    /** Whether the reaper deletes objects of this kind: the store keeps their live ones in an order it reads a batch of. */
    public boolean isReaped() {
        return reaped;
    }

    /** The name OpenAI uses in its not-found messages ("No such File object"). */
    String displayName() {
        return displayName;
    }
}
