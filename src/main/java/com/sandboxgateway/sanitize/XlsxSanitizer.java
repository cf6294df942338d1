package com.sandboxgateway.sanitize;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.secrets.TextGuard;

/**
 * Sanitizes an XLSX workbook sheet by sheet (hidden sheets too) with {@link SheetRewriter}, streaming each
 * sheet, and writes a new workbook holding only what was checked: the sheets' cells, their names and
 * visibility, and the styles that format them. Everything else a workbook can carry (pivot caches, comments,
 * embedded files, external links, macros, document properties) is not sent. A profile's required columns
 * are checked on every sheet that has any of them; a workbook where no sheet has one lacks them.
 */
final class XlsxSanitizer {

    private static final String MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
    private static final String RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

    private final SanitizationRules rules;
    private final Pseudonymizer.Session pseudonyms;
    private final TextGuard guard;
    private final InstructionCheck instructions;
    private final ExpansionLimits limits;
    private final boolean allowMacros;
    private final Xml xml = new Xml();

    XlsxSanitizer(SanitizationRules rules, Pseudonymizer.Session pseudonyms, TextGuard guard, InstructionCheck instructions,
                  ExpansionLimits limits, boolean allowMacros) {
        this.rules = rules;
        this.pseudonyms = pseudonyms;
        this.guard = guard;
        this.instructions = instructions;
        this.limits = limits;
        this.allowMacros = allowMacros;
    }

    /** The workbook part a zip's package relationships point at, or {@code null} when the zip is not a workbook. */
    String workbookPart(ZipFile zip) throws IOException {
        if (zip.getEntry("[Content_Types].xml") == null || zip.getEntry("_rels/.rels") == null) {
            return null;
        }
        for (Relationship relationship : relationships(zip, "_rels/.rels", "")) {
            if (relationship.type().endsWith("/officeDocument") && relationship.target().toLowerCase(Locale.ROOT).endsWith("workbook.xml")
                    && zip.getEntry(relationship.target()) != null) {
                return relationship.target();
            }
        }
        return null;
    }

    SanitizationReport sanitize(ZipFile zip, String workbook, OutputStream out) throws IOException {
        limits.entries(zip.size(), "The workbook");
        List<Relationship> parts = relationships(zip, relationshipsOf(workbook), workbook);
        refuseMacros(zip, parts);
        SharedStrings strings = SharedStrings.none();
        String styles = null;
        Map<String, Relationship> byId = new HashMap<>();
        for (Relationship part : parts) {
            byId.put(part.id(), part);
            if (part.type().endsWith("/sharedStrings")) {
                try (InputStream in = part(zip, part.target())) {
                    strings = SharedStrings.read(in, xml);
                }
            } else if (part.type().endsWith("/styles")) {
                styles = part.target();
            }
        }
        // Finished, never closed: the caller owns out.
        ZipOutputStream zipOut = new ZipOutputStream(out);
        zipOut.setLevel(Deflater.BEST_SPEED);
        Utf8Out writer = new Utf8Out(zipOut);
        List<SanitizationReport.Part> sheets = new ArrayList<>();
        List<Sheet> written = new ArrayList<>();
        boolean anyRequired = false;
        for (Sheet sheet : sheets(zip, workbook)) {
            Relationship part = byId.get(sheet.relationshipId());
            if (part == null || !part.type().endsWith("/worksheet")) {
                continue;
            }
            SheetRewriter rewriter = new SheetRewriter(sheet.name(), rules, pseudonyms, guard, instructions, strings);
            zipOut.putNextEntry(new ZipEntry("xl/worksheets/sheet" + (written.size() + 1) + ".xml"));
            try (InputStream in = part(zip, part.target())) {
                rewriter.rewrite(in, xml, writer);
            }
            writer.flush();
            zipOut.closeEntry();
            anyRequired |= rewriter.hasRequiredColumn();
            sheets.add(rewriter.part(sheet.state() != null && !"visible".equals(sheet.state())));
            written.add(sheet);
        }
        if (!rules.required().isEmpty() && !anyRequired) {
            throw new GatewayException(ErrorCode.MISSING_REQUIRED_COLUMNS, "No sheet of the workbook has the columns profile '"
                    + rules.profile() + "' requires: " + String.join(", ", rules.required()) + ".");
        }
        if (styles != null) {
            zipOut.putNextEntry(new ZipEntry("xl/styles.xml"));
            try (InputStream in = part(zip, styles)) {
                in.transferTo(zipOut);
            }
            zipOut.closeEntry();
        }
        writePackage(zipOut, writer, written, styles != null);
        zipOut.finish();
        zipOut.flush();
        return SanitizationReport.combined("xlsx", sheets);
    }

    private void refuseMacros(ZipFile zip, List<Relationship> parts) {
        boolean macros = parts.stream().anyMatch(part -> part.type().endsWith("/vbaProject") || part.type().endsWith("/xlMacrosheet")
                || part.type().endsWith("/xlIntlMacrosheet"))
                || zip.stream().anyMatch(entry -> entry.getName().toLowerCase(Locale.ROOT).endsWith("vbaproject.bin"));
        if (macros && !allowMacros) {
            throw new GatewayException(ErrorCode.UNSUPPORTED_FILE_TYPE, "The workbook holds macros, which are code; the policy "
                    + "does not accept macro-enabled workbooks (gateway.policy.org.files.allow-macro-workbooks). Save it as .xlsx "
                    + "without macros and upload it again.");
        }
    }

    /** The new workbook's own parts: which sheets it has, and how the parts relate. */
    private static void writePackage(ZipOutputStream zipOut, Utf8Out writer, List<Sheet> sheets, boolean styles) throws IOException {
        String header = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n";
        StringBuilder types = new StringBuilder(header)
                .append("<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">")
                .append("<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>")
                .append("<Default Extension=\"xml\" ContentType=\"application/xml\"/>")
                .append("<Override PartName=\"/xl/workbook.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>");
        StringBuilder book = new StringBuilder(header).append("<workbook xmlns=\"").append(MAIN).append("\" xmlns:r=\"")
                .append(RELATIONSHIPS).append("\"><sheets>");
        StringBuilder rels = new StringBuilder(header)
                .append("<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">");
        for (int i = 1; i <= sheets.size(); i++) {
            Sheet sheet = sheets.get(i - 1);
            types.append("<Override PartName=\"/xl/worksheets/sheet").append(i)
                    .append(".xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml\"/>");
            book.append("<sheet name=\"");
            SheetRewriter.escape(sheet.name(), book);
            book.append("\" sheetId=\"").append(i).append('"');
            if (sheet.state() != null && !"visible".equals(sheet.state())) {
                book.append(" state=\"");
                SheetRewriter.escape(sheet.state(), book);
                book.append('"');
            }
            book.append(" r:id=\"rId").append(i).append("\"/>");
            rels.append("<Relationship Id=\"rId").append(i).append("\" Type=\"").append(RELATIONSHIPS)
                    .append("/worksheet\" Target=\"worksheets/sheet").append(i).append(".xml\"/>");
        }
        if (styles) {
            types.append("<Override PartName=\"/xl/styles.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml\"/>");
            rels.append("<Relationship Id=\"rIdStyles\" Type=\"").append(RELATIONSHIPS).append("/styles\" Target=\"styles.xml\"/>");
        }
        entry(zipOut, writer, "[Content_Types].xml", types.append("</Types>"));
        entry(zipOut, writer, "_rels/.rels", new StringBuilder(header)
                .append("<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">")
                .append("<Relationship Id=\"rId1\" Type=\"").append(RELATIONSHIPS)
                .append("/officeDocument\" Target=\"xl/workbook.xml\"/></Relationships>"));
        entry(zipOut, writer, "xl/workbook.xml", book.append("</sheets></workbook>"));
        entry(zipOut, writer, "xl/_rels/workbook.xml.rels", rels.append("</Relationships>"));
    }

    private static void entry(ZipOutputStream zipOut, Utf8Out writer, String name, CharSequence content) throws IOException {
        zipOut.putNextEntry(new ZipEntry(name));
        writer.write(content);
        writer.flush();
        zipOut.closeEntry();
    }

    /** A sheet as the workbook lists it. */
    private record Sheet(String name, String state, String relationshipId) {
    }

    private List<Sheet> sheets(ZipFile zip, String workbook) throws IOException {
        List<Sheet> sheets = new ArrayList<>();
        try (InputStream in = part(zip, workbook)) {
            XMLStreamReader reader = xml.reader(in);
            while (reader.hasNext()) {
                if (reader.next() == XMLStreamConstants.START_ELEMENT && "sheet".equals(reader.getLocalName())) {
                    String name = Xml.attribute(reader, "name");
                    sheets.add(new Sheet(name == null ? "Sheet" + (sheets.size() + 1) : name, Xml.attribute(reader, "state"),
                            Xml.attribute(reader, "id")));
                }
            }
        } catch (XMLStreamException e) {
            throw Xml.invalid("sheet list", e);
        }
        return sheets;
    }

    /** A relationship from one part to another, its target resolved to an entry name. */
    private record Relationship(String id, String type, String target) {
    }

    private List<Relationship> relationships(ZipFile zip, String rels, String source) throws IOException {
        List<Relationship> found = new ArrayList<>();
        if (zip.getEntry(rels) == null) {
            return found;
        }
        try (InputStream in = part(zip, rels)) {
            XMLStreamReader reader = xml.reader(in);
            while (reader.hasNext()) {
                if (reader.next() == XMLStreamConstants.START_ELEMENT && "Relationship".equals(reader.getLocalName())
                        && !"External".equals(Xml.attribute(reader, "TargetMode"))) {
                    found.add(new Relationship(Xml.attribute(reader, "Id"), String.valueOf(Xml.attribute(reader, "Type")),
                            resolve(source, String.valueOf(Xml.attribute(reader, "Target")))));
                }
            }
        } catch (XMLStreamException e) {
            throw Xml.invalid("relationships", e);
        }
        return found;
    }

    /** {@code xl/workbook.xml} + {@code worksheets/sheet1.xml} = {@code xl/worksheets/sheet1.xml}. */
    private static String resolve(String source, String target) {
        try {
            String path = new URI(null, null, "/" + source, null).resolve(new URI(null, null, target, null)).getPath();
            return path.startsWith("/") ? path.substring(1) : path;
        } catch (URISyntaxException e) {
            throw new GatewayException(ErrorCode.INVALID_FILE, "The workbook refers to a part it names unreadably. "
                    + "Save the workbook again and upload it.");
        }
    }

    private static String relationshipsOf(String part) {
        int slash = part.lastIndexOf('/');
        return part.substring(0, slash + 1) + "_rels/" + part.substring(slash + 1) + ".rels";
    }

    private InputStream part(ZipFile zip, String name) throws IOException {
        ZipEntry entry = zip.getEntry(name);
        if (entry == null) {
            throw new GatewayException(ErrorCode.INVALID_FILE, "The workbook lacks its part " + name
                    + ". Save the workbook again and upload it.");
        }
        return limits.limit(zip.getInputStream(entry), entry::getCompressedSize, "The workbook's part " + name);
    }
}
