package com.sandboxgateway.sanitize;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;

/**
 * A workbook's shared-string table, looked up by index while its sheets stream. It lives in two temporary
 * files mapped into memory (the strings' UTF-8 bytes, and where each starts), not on the heap: a large
 * workbook holds millions of distinct strings, and the page cache holds them better than the heap would.
 */
final class SharedStrings {

    private static final SharedStrings NONE = new SharedStrings(null, null, 0);

    private final MappedByteBuffer bytes;
    private final MappedByteBuffer offsets;
    private final int size;
    private byte[] scratch = new byte[256];

    private SharedStrings(MappedByteBuffer bytes, MappedByteBuffer offsets, int size) {
        this.bytes = bytes;
        this.offsets = offsets;
        this.size = size;
    }

    /** For a workbook without a shared-string part. */
    static SharedStrings none() {
        return NONE;
    }

    /** Reads {@code sharedStrings.xml}: each {@code <si>}'s text, its rich-text runs joined, phonetic hints left out. */
    static SharedStrings read(InputStream xml, Xml factory) throws IOException {
        Path text = Files.createTempFile("xlsx-strings-", ".bin");
        Path starts = Files.createTempFile("xlsx-string-starts-", ".bin");
        try {
            int count = 0;
            long position = 0;
            try (OutputStream textOut = new BufferedOutputStream(Files.newOutputStream(text), 64 * 1024);
                 DataOutputStream startsOut = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(starts), 64 * 1024))) {
                XMLStreamReader reader = factory.reader(xml);
                StringBuilder item = new StringBuilder();
                int phonetic = 0;
                boolean inItem = false;
                while (reader.hasNext()) {
                    int event = reader.next();
                    if (event == XMLStreamConstants.START_ELEMENT) {
                        switch (reader.getLocalName()) {
                            case "si" -> {
                                inItem = true;
                                item.setLength(0);
                            }
                            case "rPh" -> phonetic++;
                            case "t" -> {
                                String value = reader.getElementText();
                                if (inItem && phonetic == 0) {
                                    item.append(value);
                                }
                            }
                            default -> { }
                        }
                    } else if (event == XMLStreamConstants.END_ELEMENT) {
                        if ("rPh".equals(reader.getLocalName())) {
                            phonetic--;
                        } else if ("si".equals(reader.getLocalName())) {
                            byte[] encoded = item.toString().getBytes(StandardCharsets.UTF_8);
                            startsOut.writeLong(position);
                            textOut.write(encoded);
                            position += encoded.length;
                            count++;
                            inItem = false;
                        }
                    }
                }
                startsOut.writeLong(position);
            } catch (XMLStreamException e) {
                throw Xml.invalid("the shared strings", e);
            }
            if (position > Integer.MAX_VALUE || (count + 1L) * 8 > Integer.MAX_VALUE) {
                throw new GatewayException(ErrorCode.INVALID_FILE, "The workbook's shared strings exceed 2 GB. Split the workbook.");
            }
            return new SharedStrings(map(text), map(starts), count);
        } finally {
            Files.deleteIfExists(text);
            Files.deleteIfExists(starts);
        }
    }

    /** A mapping outlives its file's name, which is deleted at once so nothing is left behind on a crash. */
    private static MappedByteBuffer map(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
        }
    }

    /** @throws GatewayException {@code invalid_file} for an index the table does not have */
    String get(String index, String cell) {
        int i;
        try {
            i = Integer.parseInt(index.strip());
        } catch (NumberFormatException e) {
            i = -1;
        }
        if (i < 0 || i >= size) {
            throw new GatewayException(ErrorCode.INVALID_FILE, "Cell " + cell + " refers to shared string " + index
                    + ", which the workbook does not have. Save the workbook again and upload it.");
        }
        int start = (int) offsets.getLong(i * 8);
        int length = (int) offsets.getLong(i * 8 + 8) - start;
        if (scratch.length < length) {
            scratch = new byte[Math.max(length, scratch.length * 2)];
        }
        bytes.get(start, scratch, 0, length);
        return new String(scratch, 0, length, StandardCharsets.UTF_8);
    }
}
