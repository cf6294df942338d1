package com.sandboxgateway.sanitize;

import java.io.InputStream;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;

/**
 * Reads the XML parts of a workbook as streams of events. Document type declarations are not read, so a
 * part cannot pull in external entities or expand entities into gigabytes.
 */
final class Xml {

    private final XMLInputFactory factory = XMLInputFactory.newFactory();

    Xml() {
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
    }

    XMLStreamReader reader(InputStream in) {
        try {
            return factory.createXMLStreamReader(in);
        } catch (XMLStreamException e) {
            throw invalid("a part", e);
        }
    }

    /** The value of the attribute of this local name, whatever its namespace; {@code null} when absent. */
    static String attribute(XMLStreamReader reader, String localName) {
        for (int i = 0; i < reader.getAttributeCount(); i++) {
            if (reader.getAttributeLocalName(i).equals(localName)) {
                return reader.getAttributeValue(i);
            }
        }
        return null;
    }

    /**
     * Unreadable XML is an invalid file; but a limit passed while reading (a zip bomb, the size cap) comes
     * wrapped by the parser and keeps its own refusal.
     */
    static GatewayException invalid(String part, XMLStreamException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof GatewayException refusal) {
                return refusal;
            }
        }
        return new GatewayException(ErrorCode.INVALID_FILE, "The workbook's " + part + " is not readable XML. "
                + "Save the workbook again (as .xlsx) and upload it.");
    }
}
