package com.sandboxgateway.skills;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/** Skill bundles for the tests: zips made from file names and contents, and read back. */
final class SkillBundles {

    static final String SKILL_MD = """
            ---
            name: csv-insights
            description: Summarize a CSV file with pandas and chart its columns.
            ---
            # CSV insights

            Use this skill when the user asks for a summary of tabular data.
            1. Load the file with `python scripts/summarize.py <file>`.
            2. Report the row count, the column types and a chart of the numeric columns.
            """;

    private SkillBundles() {
    }

    static byte[] zip(Map<String, byte[]> files) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            for (Map.Entry<String, byte[]> file : files.entrySet()) {
                zip.putNextEntry(new ZipEntry(file.getKey()));
                zip.write(file.getValue());
                zip.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** A skill of {@code SKILL.md} and a script, plus {@code extra} files (name, text). */
    static byte[] skill(String... extra) {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("csv-insights/SKILL.md", SKILL_MD.getBytes(StandardCharsets.UTF_8));
        files.put("csv-insights/scripts/summarize.py", """
                #!/usr/bin/env python3
                import sys
                import pandas as pd
                print(pd.read_csv(sys.argv[1]).describe())
                """.getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < extra.length; i += 2) {
            files.put(extra[i], extra[i + 1].getBytes(StandardCharsets.UTF_8));
        }
        return zip(files);
    }

    static Map<String, String> entries(byte[] zip) {
        Map<String, String> entries = new LinkedHashMap<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                entries.put(entry.getName(), new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return entries;
    }
}
