package com.sandboxgateway.ownership;

/** The kinds of upstream objects the gateway records an owner for. */
public enum ObjectKind {
    FILE("File"),
    CONTAINER("Container"),
    CONTAINER_FILE("ContainerFile"),
    RESPONSE("Response");

    private final String displayName;

    ObjectKind(String displayName) {
        this.displayName = displayName;
    }

    /** The name OpenAI uses in its not-found messages ("No such File object"). */
    String displayName() {
        return displayName;
    }
}
