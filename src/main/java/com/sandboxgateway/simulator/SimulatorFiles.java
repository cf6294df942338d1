package com.sandboxgateway.simulator;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.io.support.ResourcePatternResolver;
import org.springframework.util.FileSystemUtils;

/**
 * The simulator's WireMock root ({@code mappings/} and {@code __files/}), copied from
 * {@code classpath:simulator/} into a temporary directory.
 *
 * <p>WireMock's own classpath loading parses {@code jar:file:} URLs itself and cannot read the
 * {@code jar:nested:} URLs of a Spring Boot fat jar, so the files are copied out first. The same
 * path is taken when running from {@code target/classes}, so tests exercise the packaged behaviour.
 */
final class SimulatorFiles {

    private static final String CLASSPATH_ROOT = "simulator";
    private static final List<String> FOLDERS = List.of("mappings", "__files");

    private final Path root;

    private SimulatorFiles(Path root) {
        this.root = root;
    }

    static SimulatorFiles extractFromClasspath() {
        try {
            Path root = Files.createTempDirectory("openai-simulator-");
            ResourcePatternResolver resolver =
                    new PathMatchingResourcePatternResolver(SimulatorFiles.class.getClassLoader());
            for (String folder : FOLDERS) {
                copyFolder(resolver, folder, root);
            }
            requireMappings(root);
            return new SimulatorFiles(root);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not copy the OpenAI simulator files to a temporary directory", e);
        }
    }

    private static void copyFolder(ResourcePatternResolver resolver, String folder, Path root) throws IOException {
        String marker = "/" + CLASSPATH_ROOT + "/" + folder + "/";
        for (Resource resource : resolver.getResources("classpath*:" + CLASSPATH_ROOT + "/" + folder + "/**")) {
            String url = resource.getURL().toString();
            if (url.endsWith("/") || !resource.isReadable()) {
                continue; // a directory entry
            }
            String relative = url.substring(url.lastIndexOf(marker) + marker.length());
            Path target = root.resolve(folder).resolve(relative).normalize();
            if (!target.startsWith(root)) {
                throw new IOException("Refusing to copy simulator resource outside its root: " + url);
            }
            Files.createDirectories(target.getParent());
            try (InputStream in = resource.getInputStream()) {
                Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private static void requireMappings(Path root) throws IOException {
        Path mappings = root.resolve("mappings");
        boolean found = Files.isDirectory(mappings);
        if (found) {
            try (var entries = Files.list(mappings)) {
                found = entries.findAny().isPresent();
            }
        }
        if (!found) {
            FileSystemUtils.deleteRecursively(root);
            throw new IllegalStateException(
                    "No OpenAI simulator mappings on the classpath under " + CLASSPATH_ROOT
                            + "/mappings; is src/main/resources/simulator packaged?");
        }
    }

    Path root() {
        return root;
    }

    void delete() {
        try {
            FileSystemUtils.deleteRecursively(root);
        } catch (IOException e) {
            // Only a leftover temp directory; not worth failing a shutdown for.
        }
    }
}
