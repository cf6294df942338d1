package com.sandboxgateway.simulator;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.util.FileSystemUtils;

import tools.jackson.databind.node.ObjectNode;

/**
 * What the simulator keeps, as OpenAI would: uploaded files and their bytes, containers and the files in
 * them, responses, conversations and their items. Objects are kept as the JSON OpenAI answers with, and
 * handed out as copies; every method is synchronized, which is plenty for a fake.
 */
final class Storage implements AutoCloseable {

    private static final String ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    /**
     * Objects kept per kind; beyond it the oldest are forgotten (with their files), so a simulator under a
     * load test holds a bounded amount however long it runs.
     */
    static final int MAX_OBJECTS = 10_000;

    /** A stored object and, for files, its bytes. */
    record Stored(ObjectNode object, Blob content) {
    }

    private final Clock clock;
    private final Path spillDir;
    private final AtomicLong inMemory = new AtomicLong();
    private final Map<String, Stored> files = new LinkedHashMap<>();
    private final Map<String, ObjectNode> containers = new LinkedHashMap<>();
    private final Map<String, Map<String, Stored>> containerFiles = new HashMap<>();
    private final Map<String, ObjectNode> responses = new LinkedHashMap<>();
    private final Map<String, ObjectNode> conversations = new LinkedHashMap<>();
    private final Map<String, Map<String, ObjectNode>> items = new HashMap<>();

    Storage(Clock clock) throws IOException {
        this.clock = clock;
        this.spillDir = Files.createTempDirectory("openai-simulator-");
    }

    /** Seconds since the epoch, as OpenAI's timestamps are. */
    long now() {
        return clock.instant().getEpochSecond();
    }

    Blob read(InputStream in) throws IOException {
        return Blob.read(in, inMemory, spillDir);
    }

    Blob bytes(byte[] content) {
        return Blob.of(content, inMemory);
    }

    /** {@code prefix} and 32 random hex digits, as OpenAI's {@code resp_}, {@code cntr_}, {@code ci_} ids. */
    static String hexId(String prefix) {
        return hexId(prefix, 16);
    }

    static String hexId(String prefix, int randomBytes) {
        byte[] random = new byte[randomBytes];
        ThreadLocalRandom.current().nextBytes(random);
        return prefix + HexFormat.of().formatHex(random);
    }

    static String fileId() {
        StringBuilder id = new StringBuilder("file-");
        for (int i = 0; i < 22; i++) {
            id.append(ALPHANUMERIC.charAt(ThreadLocalRandom.current().nextInt(ALPHANUMERIC.length())));
        }
        return id.toString();
    }

    // Uploaded files.

    synchronized void putFile(ObjectNode file, Blob content) {
        files.put(file.path("id").asString(), new Stored(file, content));
        while (files.size() > MAX_OBJECTS) {
            files.remove(files.keySet().iterator().next()).content().delete();
        }
    }

    /** A file that exists and has not expired. */
    synchronized Stored file(String id) {
        Stored stored = files.get(id);
        if (stored == null || expired(stored.object())) {
            throw ApiError.notFound("File", id);
        }
        return new Stored(stored.object().deepCopy(), stored.content());
    }

    synchronized List<ObjectNode> files(String purpose) {
        return files.values().stream().map(Stored::object).filter(file -> !expired(file))
                .filter(file -> purpose == null || purpose.equals(file.path("purpose").asString()))
                .map(ObjectNode::deepCopy).toList();
    }

    synchronized void deleteFile(String id) {
        file(id);
        files.remove(id).content().delete();
    }

    private boolean expired(ObjectNode file) {
        return file.path("expires_at").isNumber() && file.path("expires_at").asLong() <= now();
    }

    // Containers and their files.

    synchronized void putContainer(ObjectNode container) {
        containers.put(container.path("id").asString(), container);
        containerFiles.put(container.path("id").asString(), new LinkedHashMap<>());
        while (containers.size() > MAX_OBJECTS) {
            String oldest = containers.keySet().iterator().next();
            containers.remove(oldest);
            containerFiles.remove(oldest).values().forEach(stored -> stored.content().delete());
        }
    }

    /** A container, {@code expired} once it was idle longer than its {@code expires_after} minutes. */
    synchronized ObjectNode container(String id) {
        ObjectNode container = containers.get(id);
        if (container == null) {
            throw ApiError.notFound("Container", id);
        }
        ObjectNode copy = container.deepCopy();
        long idleSeconds = now() - container.path("last_active_at").asLong();
        if (idleSeconds > 60L * container.path("expires_after").path("minutes").asLong(20)) {
            copy.put("status", "expired");
        }
        return copy;
    }

    synchronized List<ObjectNode> containers() {
        return containers.keySet().stream().map(this::container).toList();
    }

    /** Code ran or a file arrived: the idle clock starts again. */
    synchronized void touch(String containerId) {
        container(containerId);
        containers.get(containerId).put("last_active_at", now());
    }

    synchronized void deleteContainer(String id) {
        container(id);
        containers.remove(id);
        containerFiles.remove(id).values().forEach(stored -> stored.content().delete());
    }

    synchronized void putContainerFile(String containerId, ObjectNode file, Blob content) {
        touch(containerId);
        containerFiles.get(containerId).put(file.path("id").asString(), new Stored(file, content));
    }

    synchronized Stored containerFile(String containerId, String fileId) {
        container(containerId);
        Stored stored = containerFiles.get(containerId).get(fileId);
        if (stored == null) {
            throw ApiError.notFound("Container file", fileId);
        }
        return new Stored(stored.object().deepCopy(), stored.content());
    }

    synchronized List<Stored> containerFiles(String containerId) {
        container(containerId);
        return containerFiles.get(containerId).values().stream()
                .map(stored -> new Stored(stored.object().deepCopy(), stored.content())).toList();
    }

    synchronized void deleteContainerFile(String containerId, String fileId) {
        containerFile(containerId, fileId);
        containerFiles.get(containerId).remove(fileId).content().delete();
    }

    // Responses.

    synchronized void putResponse(ObjectNode response) {
        responses.put(response.path("id").asString(), response.deepCopy());
        while (responses.size() > MAX_OBJECTS) {
            responses.remove(responses.keySet().iterator().next());
        }
    }

    synchronized ObjectNode response(String id) {
        ObjectNode response = responses.get(id);
        if (response == null) {
            throw ApiError.notFound("Response", id);
        }
        return response.deepCopy();
    }

    synchronized void deleteResponse(String id) {
        response(id);
        responses.remove(id);
    }

    // Conversations and their items.

    synchronized void putConversation(ObjectNode conversation) {
        String id = conversation.path("id").asString();
        conversations.put(id, conversation);
        items.putIfAbsent(id, new LinkedHashMap<>());
        while (conversations.size() > MAX_OBJECTS) {
            String oldest = conversations.keySet().iterator().next();
            conversations.remove(oldest);
            items.remove(oldest);
        }
    }

    synchronized ObjectNode conversation(String id) {
        ObjectNode conversation = conversations.get(id);
        if (conversation == null) {
            throw ApiError.notFound("Conversation", id);
        }
        return conversation.deepCopy();
    }

    synchronized void deleteConversation(String id) {
        conversation(id);
        conversations.remove(id);
        items.remove(id);
    }

    synchronized void addItems(String conversationId, List<ObjectNode> added) {
        conversation(conversationId);
        Map<String, ObjectNode> kept = items.get(conversationId);
        added.forEach(item -> kept.put(item.path("id").asString(), item.deepCopy()));
        while (kept.size() > MAX_OBJECTS) {
            kept.remove(kept.keySet().iterator().next());
        }
    }

    synchronized List<ObjectNode> items(String conversationId) {
        conversation(conversationId);
        return new ArrayList<>(items.get(conversationId).values().stream().map(ObjectNode::deepCopy).toList());
    }

    synchronized ObjectNode item(String conversationId, String itemId) {
        conversation(conversationId);
        ObjectNode item = items.get(conversationId).get(itemId);
        if (item == null) {
            throw ApiError.notFound("Item", itemId);
        }
        return item.deepCopy();
    }

    synchronized void deleteItem(String conversationId, String itemId) {
        item(conversationId, itemId);
        items.get(conversationId).remove(itemId);
    }

    @Override
    public synchronized void close() {
        try {
            FileSystemUtils.deleteRecursively(spillDir);
        } catch (IOException e) {
            // Only a leftover temporary directory.
        }
    }
}
