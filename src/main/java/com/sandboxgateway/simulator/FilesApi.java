package com.sandboxgateway.simulator;

import java.io.IOException;
import java.util.List;

import com.sandboxgateway.simulator.SimulatorServer.Route;

import tools.jackson.databind.node.ObjectNode;

/** {@code /v1/files}: uploads are kept, so list, retrieve, content and delete agree with what was sent. */
final class FilesApi {

    private final Storage storage;

    FilesApi(Storage storage) {
        this.storage = storage;
    }

    List<Route> routes() {
        return List.of(
                Route.of("POST", "/v1/files", this::upload),
                Route.of("GET", "/v1/files", call -> call.json(Pages.page(call, storage.files(call.query("purpose")), 10_000, 10_000))),
                Route.of("GET", "/v1/files/{id}", call -> call.json(storage.file(call.path("id")).object())),
                Route.of("GET", "/v1/files/{id}/content", call -> call.bytes(storage.file(call.path("id")).content())),
                Route.of("DELETE", "/v1/files/{id}", this::delete));
    }

    private void upload(Call call) throws IOException {
        if (!Form.isMultipart(call)) {
            throw ApiError.invalid("Uploads are multipart/form-data with a 'file' and a 'purpose'.", null);
        }
        Form form = Form.read(call, storage);
        if (form.file() == null) {
            throw ApiError.invalid("Missing required parameter: 'file'.", "file");
        }
        String purpose = form.fields().get("purpose");
        if (purpose == null) {
            form.file().delete();
            throw ApiError.invalid("Missing required parameter: 'purpose'.", "purpose");
        }
        long now = storage.now();
        ObjectNode file = Call.JSON.createObjectNode().put("id", Storage.fileId()).put("object", "file")
                .put("bytes", form.file().size()).put("created_at", now);
        String seconds = form.fields().get("expires_after[seconds]");
        if (seconds != null) {
            file.put("expires_at", now + Long.parseLong(seconds.strip()));
        } else {
            file.putNull("expires_at");
        }
        file.put("filename", form.filename() == null || form.filename().isEmpty() ? "upload" : form.filename())
                .put("purpose", purpose).put("status", "processed").putNull("status_details");
        storage.putFile(file, form.file());
        call.json(file);
    }

    private void delete(Call call) throws IOException {
        String id = call.path("id");
        storage.deleteFile(id);
        call.json(Call.JSON.createObjectNode().put("id", id).put("object", "file").put("deleted", true));
    }
}
