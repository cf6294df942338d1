package com.sandboxgateway.simulator;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

import com.sandboxgateway.multipart.MultipartReader;
import com.sandboxgateway.simulator.SimulatorServer.Route;

import tools.jackson.databind.node.ObjectNode;

/**
 * {@code /v1/skills} and their versions: an upload (one zip, or the skill's files one by one, kept as a zip)
 * must hold a {@code SKILL.md} whose front matter names the skill; each upload to a skill is a new version,
 * and the default version's bundle is the skill's content.
 */
final class SkillsApi {

    private static final int MAX_FILES = 500;

    private final Storage storage;
    private final Map<String, Skill> skills = new LinkedHashMap<>();

    /** A skill and its versions, by version number. */
    private record Skill(ObjectNode object, Map<String, Version> versions) {
    }

    private record Version(ObjectNode object, Blob bundle) {
    }

    SkillsApi(Storage storage) {
        this.storage = storage;
    }

    List<Route> routes() {
        return List.of(
                Route.of("POST", "/v1/skills", this::create),
                Route.of("GET", "/v1/skills", call -> call.json(Pages.page(call, all(), 20, 100))),
                Route.of("GET", "/v1/skills/{id}", call -> call.json(skill(call.path("id")).object().deepCopy())),
                Route.of("POST", "/v1/skills/{id}", this::setDefault),
                Route.of("DELETE", "/v1/skills/{id}", this::delete),
                Route.of("GET", "/v1/skills/{id}/content", call -> call.bytes(defaultVersion(skill(call.path("id"))).bundle())),
                Route.of("POST", "/v1/skills/{id}/versions", this::createVersion),
                Route.of("GET", "/v1/skills/{id}/versions", call -> call.json(Pages.page(call,
                        versions(call.path("id")), 20, 100))),
                Route.of("GET", "/v1/skills/{id}/versions/{version}",
                        call -> call.json(version(call.path("id"), call.path("version")).object().deepCopy())),
                Route.of("DELETE", "/v1/skills/{id}/versions/{version}", this::deleteVersion),
                Route.of("GET", "/v1/skills/{id}/versions/{version}/content",
                        call -> call.bytes(version(call.path("id"), call.path("version")).bundle())));
    }

    private void create(Call call) throws IOException {
        Upload upload = upload(call);
        long now = storage.now();
        String id = Storage.hexId("skill_");
        ObjectNode skill = Call.JSON.createObjectNode().put("id", id).put("object", "skill").put("name", upload.name())
                .put("description", upload.description()).put("created_at", now).put("default_version", "1")
                .put("latest_version", "1");
        synchronized (this) {
            skills.put(id, new Skill(skill, new LinkedHashMap<>()));
            addVersion(skills.get(id), upload, now);
            while (skills.size() > Storage.MAX_OBJECTS) {
                skills.remove(skills.keySet().iterator().next());
            }
        }
        call.json(skill.deepCopy());
    }

    private void createVersion(Call call) throws IOException {
        Skill skill = skill(call.path("id"));
        Upload upload = upload(call);
        ObjectNode version;
        synchronized (this) {
            version = addVersion(skill, upload, storage.now());
            if ("true".equalsIgnoreCase(upload.fields().get("default"))) {
                skill.object().put("default_version", version.path("version").asString());
            }
        }
        call.json(version.deepCopy());
    }

    private ObjectNode addVersion(Skill skill, Upload upload, long now) {
        String number = Integer.toString(skill.versions().keySet().stream().mapToInt(Integer::parseInt).max().orElse(0) + 1);
        ObjectNode version = Call.JSON.createObjectNode().put("object", "skill.version").put("id", Storage.hexId("skillver_"))
                .put("skill_id", skill.object().path("id").asString()).put("version", number).put("created_at", now)
                .put("name", upload.name()).put("description", upload.description());
        skill.versions().put(number, new Version(version, storage.bytes(upload.bundle())));
        skill.object().put("latest_version", number);
        return version;
    }

    private void setDefault(Call call) throws IOException {
        String id = call.path("id");
        String number = call.json().path("default_version").asString(null);
        if (number == null) {
            throw ApiError.invalid("Missing required parameter: 'default_version'.", "default_version");
        }
        version(id, number);
        synchronized (this) {
            skills.get(id).object().put("default_version", number);
        }
        call.json(skill(id).object().deepCopy());
    }

    private void delete(Call call) throws IOException {
        String id = call.path("id");
        skill(id);
        synchronized (this) {
            skills.remove(id);
        }
        call.json(Call.JSON.createObjectNode().put("object", "skill.deleted").put("deleted", true).put("id", id));
    }

    private void deleteVersion(Call call) throws IOException {
        String id = call.path("id");
        String number = call.path("version");
        Version version = version(id, number);
        synchronized (this) {
            Skill skill = skills.get(id);
            if (skill.object().path("default_version").asString().equals(number)) {
                throw ApiError.invalid("Cannot delete the default version of a skill; set another default first.", "version");
            }
            skill.versions().remove(number);
        }
        call.json(Call.JSON.createObjectNode().put("object", "skill.version.deleted").put("deleted", true)
                .put("id", version.object().path("id").asString()).put("version", number));
    }

    private synchronized List<ObjectNode> all() {
        return skills.values().stream().map(skill -> skill.object().deepCopy()).toList();
    }

    private synchronized List<ObjectNode> versions(String id) {
        return skill(id).versions().values().stream().map(version -> version.object().deepCopy()).toList();
    }

    private synchronized Skill skill(String id) {
        Skill skill = skills.get(id);
        if (skill == null) {
            throw ApiError.notFound("Skill", id);
        }
        return skill;
    }

    private synchronized Version version(String id, String number) {
        Skill skill = skill(id);
        Version version = skill.versions().get("latest".equals(number) ? skill.object().path("latest_version").asString() : number);
        if (version == null) {
            throw ApiError.notFound("Skill version", number);
        }
        return version;
    }

    private synchronized Version defaultVersion(Skill skill) {
        return skill.versions().get(skill.object().path("default_version").asString());
    }

    /** An uploaded skill: its bundle as a zip, the name and description its {@code SKILL.md} gives, the plain fields. */
    private record Upload(byte[] bundle, String name, String description, Map<String, String> fields) {
    }

    private static Upload upload(Call call) throws IOException {
        if (!Form.isMultipart(call)) {
            throw ApiError.invalid("Skills are uploaded as multipart/form-data 'files': one zip, or the skill's files.", "files");
        }
        Map<String, byte[]> files = new LinkedHashMap<>();
        Map<String, String> fields = new LinkedHashMap<>();
        MultipartReader reader = new MultipartReader(call.body(), Form.boundary(call.header("Content-Type")));
        for (MultipartReader.Part part = reader.next(); part != null; part = reader.next()) {
            if (part.headers().name() != null && part.headers().name().startsWith("files")) {
                String name = part.headers().filename() == null ? "upload" : part.headers().filename();
                files.put(name, part.content().readAllBytes());
            } else {
                fields.put(part.headers().name(), new String(part.content().readNBytes(64 * 1024), StandardCharsets.UTF_8));
            }
        }
        if (files.isEmpty() || files.size() > MAX_FILES) {
            throw ApiError.invalid("Send the skill in 'files': one zip, or up to " + MAX_FILES + " files.", "files");
        }
        byte[] bundle = files.size() == 1 && isZip(files.values().iterator().next()) ? files.values().iterator().next() : zip(files);
        String manifest = manifest(bundle);
        if (manifest == null) {
            throw ApiError.invalid("The skill has no SKILL.md.", "files");
        }
        String name = frontMatter(manifest, "name");
        String description = frontMatter(manifest, "description");
        if (name == null || description == null) {
            throw ApiError.invalid("SKILL.md must start with front matter naming the skill's 'name' and 'description'.", "files");
        }
        return new Upload(bundle, name, description, fields);
    }

    private static boolean isZip(byte[] bytes) {
        return bytes.length >= 4 && bytes[0] == 'P' && bytes[1] == 'K' && bytes[2] == 3 && bytes[3] == 4;
    }

    private static byte[] zip(Map<String, byte[]> files) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            for (Map.Entry<String, byte[]> file : files.entrySet()) {
                zip.putNextEntry(new ZipEntry(file.getKey()));
                zip.write(file.getValue());
                zip.closeEntry();
            }
        }
        return bytes.toByteArray();
    }

    /** The text of the bundle's {@code SKILL.md} (at its root or in its one top folder), or {@code null}. */
    private static String manifest(byte[] bundle) throws IOException {
        try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(bundle))) {
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                String name = entry.getName();
                if (name.equals("SKILL.md") || name.endsWith("/SKILL.md") && name.indexOf('/') == name.length() - "/SKILL.md".length()) {
                    return new String(zip.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
        } catch (java.util.zip.ZipException e) {
            throw ApiError.invalid("The skill's zip is not readable.", "files");
        }
        return null;
    }

    /** A key of the {@code ---} delimited front matter, or {@code null}. */
    private static String frontMatter(String manifest, String key) {
        List<String> lines = new ArrayList<>(manifest.lines().toList());
        if (lines.isEmpty() || !lines.getFirst().strip().equals("---")) {
            return null;
        }
        for (String line : lines.subList(1, lines.size())) {
            if (line.strip().equals("---")) {
                return null;
            }
            if (line.toLowerCase(Locale.ROOT).startsWith(key + ":")) {
                String value = line.substring(key.length() + 1).strip();
                return value.length() > 1 && value.startsWith("\"") && value.endsWith("\"") ? value.substring(1, value.length() - 1) : value;
            }
        }
        return null;
    }
}
