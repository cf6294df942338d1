package com.sandboxgateway.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.StreamSupport;

import org.yaml.snakeyaml.Yaml;

/**
 * The deployment files of the repository, read as an operator's tools read them, and the few facts of
 * {@code application.yml} they must agree with. Tests run from the repository root (Maven's default).
 */
final class DeployFiles {

    static final Path ROOT = Path.of("").toAbsolutePath();
    static final Path APPLICATION_YML = ROOT.resolve("src/main/resources/application.yml");

    private DeployFiles() {
    }

    static Path path(String relative) {
        return ROOT.resolve(relative);
    }

    static String text(String relative) {
        try {
            return Files.readString(path(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Map<String, Object> yaml(String relative) {
        return map(new Yaml().load(text(relative)));
    }

    static List<Map<String, Object>> yamlDocuments(String content) {
        return StreamSupport.stream(new Yaml().loadAll(content).spliterator(), false)
                .filter(Objects::nonNull).map(DeployFiles::map).toList();
    }

    /** The value at a dotted path such as {@code management.server.port}, or null. */
    static Object at(Map<String, Object> tree, String dottedPath) {
        Object node = tree;
        for (String key : dottedPath.split("\\.")) {
            if (!(node instanceof Map<?, ?> m)) {
                return null;
            }
            node = m.get(key);
        }
        return node;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object node) {
        if (!(node instanceof Map<?, ?>)) {
            throw new AssertionError("expected a mapping, found " + node);
        }
        return (Map<String, Object>) node;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object node) {
        if (!(node instanceof List<?>)) {
            throw new AssertionError("expected a list, found " + node);
        }
        return (List<Object>) node;
    }

    static List<Map<String, Object>> maps(Object node) {
        return list(node).stream().map(DeployFiles::map).toList();
    }

    /** {@code server.port} of application.yml: the OpenAI-compatible API. */
    static int apiPort() {
        return (Integer) at(yamlFile(APPLICATION_YML), "server.port");
    }

    /** {@code management.server.port} of application.yml: health, metrics and admin endpoints. */
    static int managementPort() {
        return (Integer) at(yamlFile(APPLICATION_YML), "management.server.port");
    }

    static Map<String, Object> applicationYml() {
        return yamlFile(APPLICATION_YML);
    }

    private static Map<String, Object> yamlFile(Path file) {
        return yaml(ROOT.relativize(file).toString());
    }
}
