package com.sandboxgateway.review;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * One YAML mapping of a rule file (the whole file, or one rule in it), read with typed getters whose
 * errors name the file, the place ({@code rule 'override-en'}) and the key. Parsed with SnakeYAML's safe
 * constructor: plain maps, lists and scalars only, no duplicate keys.
 */
final class RuleFile {

    private static final Pattern ID = Pattern.compile("[a-z][a-z0-9_-]{0,63}");

    private final String source;
    private final String place;
    private final Map<String, Object> values;

    private RuleFile(String source, String place, Map<String, Object> values) {
        this.source = source;
        this.place = place;
        this.values = values;
    }

    static RuleFile read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read rule file " + file, e);
        }
    }

    static RuleFile read(InputStream in, String source) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setMaxAliasesForCollections(20);
        Object root;
        try {
            root = new Yaml(new SafeConstructor(options)).load(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (YAMLException e) {
            throw new InvalidRulesException(source, "not a valid YAML file: " + e.getMessage(), e);
        }
        if (root == null) {
            root = Map.of();
        }
        if (!(root instanceof Map<?, ?> map)) {
            throw new InvalidRulesException(source, "the file must be a YAML mapping (keys such as 'rules:'), not a "
                    + kind(root));
        }
        return new RuleFile(source, "the file", stringKeys(source, "the file", map));
    }

    static RuleFile classpath(String resource) {
        try (InputStream in = RuleFile.class.getResourceAsStream("/" + resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource + " on the classpath");
            }
            return read(in, "classpath:" + resource);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String source() {
        return source;
    }

    String place() {
        return place;
    }

    InvalidRulesException problem(String problem) {
        return new InvalidRulesException(source, place + ": " + problem);
    }

    /** Fails on a key outside {@code known}: a misspelt key would otherwise silently do nothing. */
    RuleFile allowOnly(Set<String> known) {
        for (String key : values.keySet()) {
            if (!known.contains(key)) {
                throw problem("unknown key '" + key + "'; expected one of " + known.stream().sorted().toList());
            }
        }
        return this;
    }

    boolean has(String key) {
        return values.containsKey(key);
    }

    String id(String key) {
        String id = string(key);
        if (!ID.matcher(id).matches()) {
            throw problem("'" + key + "' must be lower case letters, digits, '_' or '-' (at most 64), starting with a letter; got '"
                    + id + "'");
        }
        return id;
    }

    String string(String key) {
        Object value = values.get(key);
        if (value == null) {
            throw problem("missing '" + key + "'");
        }
        if (!(value instanceof String || value instanceof Number || value instanceof Boolean)) {
            throw problem("'" + key + "' must be a single value, not a " + kind(value));
        }
        return value.toString();
    }

    String string(String key, String otherwise) {
        return has(key) ? string(key) : otherwise;
    }

    double number(String key, double otherwise) {
        Object value = values.get(key);
        if (value == null) {
            return otherwise;
        }
        if (value instanceof Number number) {
            return number.doubleValue();
        }
        try {
            return Double.parseDouble(value.toString().replace("_", ""));
        } catch (NumberFormatException e) {
            throw problem("'" + key + "' must be a number such as 1e9, got '" + value + "'");
        }
    }

    /** A list of strings; a single string counts as a list of one; absent is empty. */
    List<String> strings(String key) {
        Object value = values.get(key);
        if (value == null) {
            return List.of();
        }
        List<?> items = value instanceof List<?> list ? list : List.of(value);
        List<String> strings = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            Object item = items.get(i);
            if (item == null || item instanceof Map || item instanceof List) {
                throw problem("'" + key + "' item " + (i + 1) + " must be a string, not a " + kind(item));
            }
            strings.add(item.toString());
        }
        return strings;
    }

    /** Each item of {@code key} compiled; a bad one is reported with its index and the regex engine's reason. */
    List<Pattern> patterns(String key, int flags) {
        List<String> sources = strings(key);
        List<Pattern> patterns = new ArrayList<>(sources.size());
        for (int i = 0; i < sources.size(); i++) {
            patterns.add(pattern(key + "' item " + (i + 1), sources.get(i), flags));
        }
        return patterns;
    }

    Pattern pattern(String what, String regex, int flags) {
        try {
            return Pattern.compile(regex, flags);
        } catch (PatternSyntaxException e) {
            throw problem("'" + what + " is not a valid regular expression: " + e.getDescription() + " near index "
                    + e.getIndex() + " of " + regex);
        }
    }

    /** A nested mapping, or {@code null} when absent. */
    RuleFile section(String key, String place) {
        Object value = values.get(key);
        if (value == null) {
            return null;
        }
        if (!(value instanceof Map<?, ?> map)) {
            throw problem("'" + key + "' must be a mapping, not a " + kind(value));
        }
        return new RuleFile(source, place, stringKeys(source, place, map));
    }

    /** The entries of a mapping of mappings, e.g. {@code flags:} in code rules, each named after its key. */
    Map<String, RuleFile> sections(String key, String placePrefix) {
        RuleFile outer = section(key, "'" + key + "'");
        Map<String, RuleFile> sections = new LinkedHashMap<>();
        if (outer != null) {
            for (String name : outer.values.keySet()) {
                sections.put(name, outer.section(name, placePrefix + " '" + name + "'"));
            }
        }
        return sections;
    }

    /** A list of mappings, e.g. {@code rules:} in injection rules. */
    List<RuleFile> list(String key, String itemPlace) {
        Object value = values.get(key);
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> list)) {
            throw problem("'" + key + "' must be a list, not a " + kind(value));
        }
        List<RuleFile> items = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            String place = itemPlace + " " + (i + 1);
            if (!(list.get(i) instanceof Map<?, ?> map)) {
                throw new InvalidRulesException(source, place + ": must be a mapping (id:, pattern:, ...), not a "
                        + kind(list.get(i)));
            }
            items.add(new RuleFile(source, place, stringKeys(source, place, map)));
        }
        return items;
    }

    /** The same values, now described as {@code place} in messages (once an item's id is known). */
    RuleFile named(String place) {
        return new RuleFile(source, place, values);
    }

    /** A mapping of strings to strings, e.g. {@code aliases:}. */
    Map<String, String> stringMap(String key) {
        RuleFile section = section(key, "'" + key + "'");
        Map<String, String> map = new LinkedHashMap<>();
        if (section != null) {
            section.values.keySet().forEach(name -> map.put(name, section.string(name)));
        }
        return map;
    }

    private static Map<String, Object> stringKeys(String source, String place, Map<?, ?> map) {
        Map<String, Object> values = new LinkedHashMap<>();
        map.forEach((key, value) -> {
            if (!(key instanceof String name)) {
                throw new InvalidRulesException(source, place + ": key " + key + " must be a string");
            }
            values.put(name, value);
        });
        return values;
    }

    private static String kind(Object value) {
        if (value instanceof Map) {
            return "mapping";
        }
        if (value instanceof List) {
            return "list";
        }
        return value == null ? "null" : "scalar";
    }
}
