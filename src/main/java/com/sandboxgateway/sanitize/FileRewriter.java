package com.sandboxgateway.sanitize;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.config.PolicyProperties;
import com.sandboxgateway.secrets.TextFileGuard;
import com.sandboxgateway.secrets.TextGuard;

import tools.jackson.databind.json.JsonMapper;

/**
 * Reads one file through the rules in the format its content shows ({@link FormatDetector}), and the
 * content of its compressed or archived parts the same way: a {@code .gz} is inflated, sanitized and
 * compressed again; a zip is a workbook or an archive sanitized entry by entry. An archive inside an
 * archive is refused, so one level of unpacking shows everything. A skill bundle is read the same way,
 * its scripts and notes as text whatever their names. One instance per file.
 */
final class FileRewriter {

    private final PolicyProperties.Files files;
    private final FormatDetector detector;
    private final SanitizationRules rules;
    private final Set<String> governed;
    private final Pseudonymizer.Session pseudonyms;
    private final TextGuard guard;
    private final InstructionCheck instructions;
    private final TextFileGuard text;
    private final JsonMapper json;
    private final ExpansionLimits limits;
    private final boolean skill;

    /** @param skill whether the file is (part of) a skill bundle: text of any name is read as text, and archives are not refused by policy */
    FileRewriter(PolicyProperties.Files files, SanitizationRules rules, Pseudonymizer.Session pseudonyms, TextGuard guard,
                 InstructionCheck instructions, TextFileGuard text, JsonMapper json, boolean skill) {
        this.files = files;
        this.skill = skill;
        this.detector = new FormatDetector(files.opaqueExtensions(), json, skill);
        this.rules = rules;
        this.pseudonyms = pseudonyms;
        this.guard = guard;
        this.instructions = instructions;
        this.text = text;
        this.json = json;
        this.limits = new ExpansionLimits(files.maxExpandedSize().toBytes(), files.maxExpansionRatio(), files.maxArchiveEntries());
        Set<String> governed = new HashSet<>(rules.drop());
        governed.addAll(rules.pseudonymize());
        governed.addAll(rules.required());
        this.governed = Set.copyOf(governed);
    }

    /** @param depth 0 for the file itself, 1 for what an archive or gzip holds */
    SanitizationReport rewrite(String name, InputStream content, OutputStream out, int depth) throws IOException {
        BufferedInputStream in = new BufferedInputStream(content, 64 * 1024);
        in.mark(FormatDetector.HEAD_BYTES);
        byte[] head = in.readNBytes(FormatDetector.HEAD_BYTES);
        in.reset();
        FormatDetector.Detected detected = detector.detect(name, head, head.length, governed);
        return switch (detected.format()) {
            case CSV, TSV -> table(name, detected.delimiter(), in, out);
            case JSONL -> new JsonLinesSanitizer(rules, pseudonyms, json, guard, instructions).sanitize(in, out);
            case JSON_ARRAY -> new JsonArraySanitizer(rules, pseudonyms, json, guard, instructions).sanitize(in, out);
            case TEXT -> {
                TextLinesChecked checked = new TextLinesChecked(out, instructions);
                text.copy(in, checked);
                checked.flush();
                checked.finish();
                yield new SanitizationReport("text", List.of(), List.of(), 0, null);
            }
            case OPAQUE -> {
                in.transferTo(out);
                yield new SanitizationReport("opaque", List.of(), List.of(), 0, null);
            }
            case GZIP -> gzip(name, in, out, depth);
            case ZIP -> zip(name, in, out, depth);
        };
    }

    /**
     * A file of a skill: a zip that is no workbook is the whole bundle, its entries read one by one (an archive
     * among them refused); anything else is one file of the skill, named by its path in it, as an archive entry is read.
     */
    SanitizationReport skillPart(String name, InputStream content, OutputStream out) throws IOException {
        requireRelative(name, "The skill's file");
        BufferedInputStream in = new BufferedInputStream(content, 64 * 1024);
        in.mark(FormatDetector.HEAD_BYTES);
        byte[] head = in.readNBytes(FormatDetector.HEAD_BYTES);
        in.reset();
        if (ContentSignature.of(head, head.length) != ContentSignature.ZIP) {
            return rewrite(name, in, out, 1);
        }
        return spooledZip(in, (zip, spool) -> {
            XlsxSanitizer workbook = new XlsxSanitizer(rules, pseudonyms, guard, instructions, limits, files.allowMacroWorkbooks());
            String part = workbook.workbookPart(zip);
            return part != null ? workbook.sanitize(zip, part, out) : archive(name, zip, out, 0);
        });
    }

    private SanitizationReport table(String name, char delimiter, InputStream in, OutputStream out) throws IOException {
        String extension = FormatDetector.extension(name);
        try {
            return new CsvSanitizer(delimiter, rules, pseudonyms, guard, instructions).sanitize(in, out);
        } catch (GatewayException e) {
            if (e.code() != ErrorCode.INVALID_FILE || extension.equals("csv") || extension.equals("tsv")) {
                throw e;
            }
            throw new GatewayException(e.code(), "The file was read as a table, since its first line names a column the "
                    + "policy governs. " + e.getMessage(), e.param(), e);
        }
    }

    private SanitizationReport gzip(String name, InputStream in, OutputStream out, int depth) throws IOException {
        refuseNested(name, depth);
        String inner = name.toLowerCase(java.util.Locale.ROOT).endsWith(".gz") ? name.substring(0, name.length() - 3) : name;
        GZIPOutputStream compressed = new GZIPOutputStream(out, 64 * 1024);
        SanitizationReport report = rewrite(inner, limits.gunzip(in), compressed, depth + 1);
        compressed.finish();
        return SanitizationReport.combined("gzip", List.of(new SanitizationReport.Part("entry", inner, report, List.of())));
    }

    /** A zip is read from a private spool file: its directory is at its end, and a workbook's parts come in any order. */
    private SanitizationReport zip(String name, InputStream in, OutputStream out, int depth) throws IOException {
        return spooledZip(in, (zip, spool) -> unpacked(name, zip, spool, out, depth));
    }

    /** What reads a zip once it is spooled. */
    private interface ZipReader {
        SanitizationReport read(ZipFile zip, Path spool) throws IOException;
    }

    private static SanitizationReport spooledZip(InputStream in, ZipReader reader) throws IOException {
        Path spool = Files.createTempFile("upload-", ".zip");
        try {
            try (OutputStream copy = Files.newOutputStream(spool)) {
                in.transferTo(copy);
            }
            try (ZipFile zip = new ZipFile(spool.toFile())) {
                return reader.read(zip, spool);
            } catch (ZipException | EOFException e) {
                // A cut-short entry ends its inflater's input early: the file is broken, not the gateway.
                throw unreadableZip();
            }
        } finally {
            Files.deleteIfExists(spool);
        }
    }

    /** A workbook, an Office document of another kind, or an archive. */
    private SanitizationReport unpacked(String name, ZipFile zip, Path spool, OutputStream out, int depth) throws IOException {
        XlsxSanitizer workbook = new XlsxSanitizer(rules, pseudonyms, guard, instructions, limits, files.allowMacroWorkbooks());
        String part = workbook.workbookPart(zip);
        if (part != null) {
            return workbook.sanitize(zip, part, out);
        }
        String extension = FormatDetector.extension(name);
        if (extension.equals("xlsx") || extension.equals("xlsm")) {
            throw new GatewayException(ErrorCode.UNSUPPORTED_FILE_TYPE, "The file '" + name
                    + "' does not match its name: it is a zip archive, not a workbook.");
        }
        if (zip.getEntry("[Content_Types].xml") != null) {
            return officeDocument(name, spool, out);
        }
        return archive(name, zip, out, depth);
    }

    /** A document (.docx, .pptx) is not a table: it passes only under a name the opaque list admits. */
    private SanitizationReport officeDocument(String name, Path spool, OutputStream out) throws IOException {
        if (!detector.namedOpaque(name)) {
            throw new GatewayException(ErrorCode.UNSUPPORTED_FILE_TYPE, "The file '" + name + "' is an Office document other "
                    + "than a workbook, which the policy does not accept. Send its data as CSV or XLSX.");
        }
        Files.copy(spool, out);
        return new SanitizationReport("opaque", List.of(), List.of(), 0, null);
    }

    private SanitizationReport archive(String name, ZipFile zip, OutputStream out, int depth) throws IOException {
        if (files.archives() == PolicyProperties.ArchivePolicy.REFUSE && !skill) {
            throw new GatewayException(ErrorCode.UNSUPPORTED_FILE_TYPE, "The file '" + name + "' is a zip archive, which the "
                    + "policy refuses (gateway.policy.org.files.archives). Upload its files one by one.");
        }
        refuseNested(name, depth);
        limits.entries(zip.size(), "The archive");
        ZipOutputStream archive = new ZipOutputStream(out);
        List<SanitizationReport.Part> entries = new ArrayList<>();
        for (ZipEntry entry : zip.stream().toList()) {
            String entryName = entry.getName();
            requireRelative(entryName, "The archive's entry");
            archive.putNextEntry(new ZipEntry(entryName));
            if (!entry.isDirectory()) {
                try (InputStream in = limits.limit(zip.getInputStream(entry), entry::getCompressedSize, "The entry " + entryName)) {
                    entries.add(new SanitizationReport.Part("entry", entryName, rewrite(entryName, in, archive, depth + 1), List.of()));
                } catch (GatewayException e) {
                    throw new GatewayException(e.code(), "Entry '" + entryName + "' of the archive: " + e.getMessage(), e.param(), e);
                }
            }
            archive.closeEntry();
        }
        archive.finish();
        return SanitizationReport.combined("zip", entries);
    }

    /** @throws GatewayException {@code invalid_file} when a name inside an archive or a skill points outside it */
    static void requireRelative(String name, String what) {
        if (name.startsWith("/") || name.contains("\\") || ("/" + name + "/").contains("/../")) {
            throw new GatewayException(ErrorCode.INVALID_FILE, what + " '" + name + "' points outside the "
                    + "archive. Pack the files again with relative names.");
        }
    }

    private static void refuseNested(String name, int depth) {
        if (depth > 0) {
            throw new GatewayException(ErrorCode.UNSUPPORTED_FILE_TYPE, "'" + name + "' is an archive inside an archive; the "
                    + "gateway unpacks one level only. Pack the files into one archive.");
        }
    }

    private static GatewayException unreadableZip() {
        return new GatewayException(ErrorCode.INVALID_FILE, "The zip file is not readable (corrupt, cut short, encrypted or "
                + "with an entry twice). Pack it again without a password and upload it.");
    }
}
