package com.sandboxgateway.ownership;

/** The kinds of upstream objects the gateway records an owner for. */
public enum ObjectKind {
    FILE("File"),
    CONTAINER("Container"),
    CONTAINER_FILE("ContainerFile"),
    RESPONSE("Response"),
    /** An output item of a response, or an item added to a conversation. */
    ITEM("Item"),
    CONVERSATION("Conversation"),
    /** A skill of {@code /v1/skills}; its versions are reached through it. */
    SKILL("Skill");

    private final String displayName;

    ObjectKind(String displayName) {
        this.displayName = displayName;
    }

    /** The name OpenAI uses in its not-found messages ("No such File object"). */
    String displayName() {
        return displayName;
    }
}
