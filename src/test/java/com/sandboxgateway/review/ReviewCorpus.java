package com.sandboxgateway.review;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The corpora in {@code src/test/resources/review/}: text files with one case per line ({@code #}
 * comments; escapes {@code \n}, {@code \t}, {@code \\} and {@code \}{@code uXXXX}), and directories of
 * Python blocks.
 */
final class ReviewCorpus {

    private ReviewCorpus() {
    }

    static List<String> lines(String resource) {
        try (InputStream in = ReviewCorpus.class.getResourceAsStream("/review/" + resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource review/" + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.isBlank() && !line.startsWith("#"))
                    .map(ReviewCorpus::unescape)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The {@code .py} files of a resource directory, by name. */
    static List<Path> pythonFiles(String directory) {
        try (Stream<Path> files = Files.list(Path.of(ReviewCorpus.class.getResource("/review/" + directory).toURI()))) {
            return files.filter(file -> file.toString().endsWith(".py")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String unescape(String line) {
        StringBuilder text = new StringBuilder(line.length());
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c != '\\' || i + 1 >= line.length()) {
                text.append(c);
                continue;
            }
            char next = line.charAt(++i);
            switch (next) {
                case 'n' -> text.append('\n');
                case 't' -> text.append('\t');
                case 'u' -> {
                    text.append((char) Integer.parseInt(line.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                default -> text.append(next);
            }
        }
        return text.toString();
    }
}
