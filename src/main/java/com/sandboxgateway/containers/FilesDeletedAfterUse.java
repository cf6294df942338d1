package com.sandboxgateway.containers;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.openai.ResponseView;
import com.sandboxgateway.ownership.OwnershipStore;
import com.sandboxgateway.policy.AfterAnswer;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.upstream.UpstreamClient;
import com.sandboxgateway.upstream.UpstreamRequest;
import com.sandboxgateway.upstream.UpstreamResponse;

import tools.jackson.databind.JsonNode;

/**
 * With {@code files.delete-after-use}, deletes upstream the files a response used (its auto
 * container's {@code file_ids} and its {@code input_file}s) once the response has finished, streamed,
 * in the foreground or in the background. A failed deletion leaves the file to the reaper.
 */
public final class FilesDeletedAfterUse implements AfterAnswer {

    private static final Logger log = LoggerFactory.getLogger(FilesDeletedAfterUse.class);

    private final UpstreamClient upstream;
    private final OwnershipStore store;
    private final JdbcClient jdbc;

    public FilesDeletedAfterUse(UpstreamClient upstream, OwnershipStore store, JdbcClient jdbc) {
        this.upstream = upstream;
        this.store = store;
        this.jdbc = jdbc;
    }


    @Override
    public Answer follow(Exchange exchange, Answer answer) {
        answer.response().ifPresent(response -> settle(exchange, response));
        return answer;
    }

    private void settle(Exchange exchange, ResponseView response) {
        String responseId = response.id();
        if (responseId == null) {
            return;
        }
        Set<String> used = exchange.route().route() == Route.RESPONSES_CREATE ? usedFiles(exchange.json()) : Set.of();
        if (!response.finished()) {
            used.forEach(file -> jdbc.sql("INSERT INTO file_use (response_id, file_id) SELECT :response, :file WHERE NOT EXISTS "
                    + "(SELECT 1 FROM file_use WHERE response_id = :response AND file_id = :file)")
                    .param("response", responseId).param("file", file).update());
            return;
        }
        Set<String> toDelete = new LinkedHashSet<>(used);
        toDelete.addAll(jdbc.sql("SELECT file_id FROM file_use WHERE response_id = :response").param("response", responseId)
                .query(String.class).list());
        for (String file : toDelete) {
            delete(exchange.principal().team(), file);
        }
        jdbc.sql("DELETE FROM file_use WHERE response_id = :response").param("response", responseId).update();
    }

    private void delete(String team, String file) {
        try (UpstreamResponse answer = upstream.send(new UpstreamRequest(team, "DELETE", "/v1/files/" + file,
                Map.of("Accept", "application/json"), new UpstreamRequest.NoBody(), false))) {
            if (answer.status() == 200 || answer.status() == 404) {
                store.markDeleted(file);
            } else {
                log.warn("Could not delete used file {}: upstream answered {}; the reaper will retry", file, answer.status());
            }
        } catch (GatewayException e) {
            log.warn("Could not delete used file {}: {}; the reaper will retry", file, e.getMessage());
        }
    }

    private static Set<String> usedFiles(JsonNode body) {
        Set<String> files = new LinkedHashSet<>();
        if (body == null) {
            return files;
        }
        for (JsonNode tool : body.path("tools")) {
            tool.path("container").path("file_ids").forEach(id -> files.add(id.asString()));
        }
        for (JsonNode item : body.path("input")) {
            for (JsonNode part : item.path("content")) {
                String file = part.path("file_id").asString("");
                if ("input_file".equals(part.path("type").asString(null)) && file.startsWith("file-")) {
                    files.add(file);
                }
            }
        }
        return files;
    }
}
