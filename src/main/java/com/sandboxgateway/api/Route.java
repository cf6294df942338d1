package com.sandboxgateway.api;

import java.util.List;

/**
 * The routes the gateway forwards; every other {@code /v1} path is refused. Path templates name their
 * ids in braces, and each route says what request body it takes.
 */
public enum Route {
    RESPONSES_CREATE("POST", "/v1/responses", Body.JSON),
    RESPONSE_GET("GET", "/v1/responses/{response_id}", Body.NONE),
    RESPONSE_DELETE("DELETE", "/v1/responses/{response_id}", Body.NONE),
    RESPONSE_CANCEL("POST", "/v1/responses/{response_id}/cancel", Body.NONE),
    FILES_UPLOAD("POST", "/v1/files", Body.MULTIPART),
    FILES_LIST("GET", "/v1/files", Body.NONE),
    FILE_GET("GET", "/v1/files/{file_id}", Body.NONE),
    FILE_CONTENT("GET", "/v1/files/{file_id}/content", Body.NONE),
    FILE_DELETE("DELETE", "/v1/files/{file_id}", Body.NONE),
    CONTAINERS_CREATE("POST", "/v1/containers", Body.JSON),
    CONTAINERS_LIST("GET", "/v1/containers", Body.NONE),
    CONTAINER_GET("GET", "/v1/containers/{container_id}", Body.NONE),
    CONTAINER_DELETE("DELETE", "/v1/containers/{container_id}", Body.NONE),
    CONTAINER_FILES_CREATE("POST", "/v1/containers/{container_id}/files", Body.JSON_OR_MULTIPART),
    CONTAINER_FILES_LIST("GET", "/v1/containers/{container_id}/files", Body.NONE),
    CONTAINER_FILE_GET("GET", "/v1/containers/{container_id}/files/{file_id}", Body.NONE),
    CONTAINER_FILE_CONTENT("GET", "/v1/containers/{container_id}/files/{file_id}/content", Body.NONE),
    CONTAINER_FILE_DELETE("DELETE", "/v1/containers/{container_id}/files/{file_id}", Body.NONE),
    CONVERSATIONS_CREATE("POST", "/v1/conversations", Body.JSON),
    CONVERSATION_GET("GET", "/v1/conversations/{conversation_id}", Body.NONE),
    CONVERSATION_UPDATE("POST", "/v1/conversations/{conversation_id}", Body.JSON),
    CONVERSATION_DELETE("DELETE", "/v1/conversations/{conversation_id}", Body.NONE),
    CONVERSATION_ITEMS_LIST("GET", "/v1/conversations/{conversation_id}/items", Body.NONE),
    CONVERSATION_ITEMS_CREATE("POST", "/v1/conversations/{conversation_id}/items", Body.JSON),
    CONVERSATION_ITEM_GET("GET", "/v1/conversations/{conversation_id}/items/{item_id}", Body.NONE),
    CONVERSATION_ITEM_DELETE("DELETE", "/v1/conversations/{conversation_id}/items/{item_id}", Body.NONE),
    SKILLS_CREATE("POST", "/v1/skills", Body.MULTIPART),
    SKILLS_LIST("GET", "/v1/skills", Body.NONE),
    SKILL_GET("GET", "/v1/skills/{skill_id}", Body.NONE),
    SKILL_UPDATE("POST", "/v1/skills/{skill_id}", Body.JSON),
    SKILL_DELETE("DELETE", "/v1/skills/{skill_id}", Body.NONE),
    SKILL_CONTENT("GET", "/v1/skills/{skill_id}/content", Body.NONE),
    SKILL_VERSIONS_CREATE("POST", "/v1/skills/{skill_id}/versions", Body.MULTIPART),
    SKILL_VERSIONS_LIST("GET", "/v1/skills/{skill_id}/versions", Body.NONE),
    SKILL_VERSION_GET("GET", "/v1/skills/{skill_id}/versions/{version}", Body.NONE),
    SKILL_VERSION_DELETE("DELETE", "/v1/skills/{skill_id}/versions/{version}", Body.NONE),
    SKILL_VERSION_CONTENT("GET", "/v1/skills/{skill_id}/versions/{version}/content", Body.NONE);

    /** What a route accepts as request body. */
    public enum Body { NONE, JSON, MULTIPART, JSON_OR_MULTIPART }

    private final String method;
    private final List<String> segments;
    private final Body body;

    Route(String method, String template, Body body) {
        this.method = method;
        this.segments = List.of(template.substring(1).split("/"));
        this.body = body;
    }

    public String method() {
        return method;
    }

    public Body body() {
        return body;
    }

    public List<String> segments() {
        return segments;
    }
}
