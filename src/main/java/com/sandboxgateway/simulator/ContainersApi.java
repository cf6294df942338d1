package com.sandboxgateway.simulator;

import java.io.IOException;
import java.util.List;

import com.sandboxgateway.simulator.SimulatorServer.Route;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code /v1/containers} and their files. Containers made by a response's {@code auto} container are kept
 * here too, with the files it was given and the ones its code wrote, and {@code last_active_at} moves
 * whenever code runs or a file arrives, so a reaper sees them as OpenAI's would be.
 */
final class ContainersApi {

    private static final int DEFAULT_IDLE_MINUTES = 20;

    private final Storage storage;

    ContainersApi(Storage storage) {
        this.storage = storage;
    }

    List<Route> routes() {
        return List.of(
                Route.of("POST", "/v1/containers", call -> call.json(create(call.json()))),
                Route.of("GET", "/v1/containers", call -> call.json(Pages.page(call, storage.containers(), 20, 100))),
                Route.of("GET", "/v1/containers/{id}", call -> call.json(storage.container(call.path("id")))),
                Route.of("DELETE", "/v1/containers/{id}", this::delete),
                Route.of("POST", "/v1/containers/{id}/files", this::addFile),
                Route.of("GET", "/v1/containers/{id}/files", call -> call.json(Pages.page(call,
                        storage.containerFiles(call.path("id")).stream().map(Storage.Stored::object).toList(), 20, 100))),
                Route.of("GET", "/v1/containers/{id}/files/{fileId}",
                        call -> call.json(storage.containerFile(call.path("id"), call.path("fileId")).object())),
                Route.of("GET", "/v1/containers/{id}/files/{fileId}/content",
                        call -> call.bytes(storage.containerFile(call.path("id"), call.path("fileId")).content())),
                Route.of("DELETE", "/v1/containers/{id}/files/{fileId}", this::deleteFile));
    }

    /** A new running container from a create body or a response's {@code auto} container; copies its {@code file_ids}. */
    ObjectNode create(JsonNode spec) throws IOException {
        for (JsonNode fileId : spec.path("file_ids")) {
            storage.file(fileId.asString());
        }
        long now = storage.now();
        ObjectNode container = Call.JSON.createObjectNode().put("id", Storage.hexId("cntr_")).put("object", "container")
                .put("name", spec.path("name").asString("container")).put("created_at", now).put("status", "running")
                .put("last_active_at", now);
        if (spec.path("expires_after").isObject()) {
            container.set("expires_after", spec.path("expires_after").deepCopy());
        } else {
            container.putObject("expires_after").put("anchor", "last_active_at").put("minutes", DEFAULT_IDLE_MINUTES);
        }
        container.put("memory_limit", spec.path("memory_limit").asString("1g"));
        if (spec.path("network_policy").isObject()) {
            ObjectNode policy = ((ObjectNode) spec.path("network_policy")).deepCopy();
            // OpenAI never returns the secrets a policy hands to the sandbox.
            policy.remove("domain_secrets");
            container.set("network_policy", policy);
        } else {
            container.putObject("network_policy").put("type", "disabled");
        }
        storage.putContainer(container);
        for (JsonNode fileId : spec.path("file_ids")) {
            copy(container.path("id").asString(), fileId.asString());
        }
        return container.deepCopy();
    }

    /** Copies an uploaded file into {@code /mnt/data} of a container (its own bytes: deleting either leaves the other). */
    ObjectNode copy(String containerId, String fileId) throws IOException {
        Storage.Stored file = storage.file(fileId);
        Blob copy;
        try (var in = file.content().open()) {
            copy = storage.read(in);
        }
        return put(containerId, "/mnt/data/" + file.object().path("filename").asString(), copy, "user");
    }

    /** Stores a file in a container; {@code source} is {@code user} for uploads, {@code assistant} for what code wrote. */
    ObjectNode put(String containerId, String path, Blob content, String source) {
        ObjectNode file = Call.JSON.createObjectNode().put("id", Storage.hexId("cfile_")).put("object", "container.file")
                .put("container_id", containerId).put("created_at", storage.now()).put("bytes", content.size())
                .put("path", path).put("source", source);
        storage.putContainerFile(containerId, file, content);
        return file;
    }

    private void addFile(Call call) throws IOException {
        String containerId = call.path("id");
        storage.container(containerId);
        if (Form.isMultipart(call)) {
            Form form = Form.read(call, storage);
            if (form.file() != null) {
                String name = form.filename() == null || form.filename().isEmpty() ? "upload" : form.filename();
                call.json(put(containerId, "/mnt/data/" + name, form.file(), "user"));
                return;
            }
            call.json(copy(containerId, required(form.fields().get("file_id"))));
            return;
        }
        call.json(copy(containerId, required(call.json().path("file_id").asString(null))));
    }

    private static String required(String fileId) {
        if (fileId == null || fileId.isBlank()) {
            throw ApiError.invalid("Send a 'file' part or a 'file_id'.", "file");
        }
        return fileId;
    }

    private void delete(Call call) throws IOException {
        String id = call.path("id");
        storage.deleteContainer(id);
        call.json(Call.JSON.createObjectNode().put("id", id).put("object", "container.deleted").put("deleted", true));
    }

    private void deleteFile(Call call) throws IOException {
        String fileId = call.path("fileId");
        storage.deleteContainerFile(call.path("id"), fileId);
        call.json(Call.JSON.createObjectNode().put("id", fileId).put("object", "container.file.deleted").put("deleted", true));
    }
}
