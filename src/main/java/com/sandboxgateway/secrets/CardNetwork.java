package com.sandboxgateway.secrets;

import java.util.List;

/**
 * A card network's issuer prefixes (as six-digit IIN ranges) and the card lengths it issues, after the
 * networks' published tables: Visa 4 (13, 16, 19 digits); Mastercard 51–55 and 2221–2720 (16); American
 * Express 34, 37 (15); Discover 6011, 644–649, 65 (16–19); Diners Club 300–305, 3095, 36, 38–39 (14–19);
 * JCB 3528–3589 (16–19); UnionPay 62 (16–19); Maestro 5018, 5020, 5038, 5893, 6304, 6759, 6761–6763
 * (13–19); Mir 2200–2204 (16–19).
 *
 * @param fromIin first six-digit prefix of the range
 * @param toIin last six-digit prefix of the range
 * @param lengths bit {@code n} set when the network issues {@code n}-digit cards
 */
record CardNetwork(int fromIin, int toIin, int lengths) {

    private static final int VISA = bits(13) | bits(16) | bits(19);
    private static final int SIXTEEN = bits(16);
    private static final int SIXTEEN_TO_NINETEEN = range(16, 19);

    private static final List<CardNetwork> ALL = List.of(
            new CardNetwork(400000, 499999, VISA),
            new CardNetwork(510000, 559999, SIXTEEN),
            new CardNetwork(222100, 272099, SIXTEEN),
            new CardNetwork(340000, 349999, bits(15)),
            new CardNetwork(370000, 379999, bits(15)),
            new CardNetwork(601100, 601199, SIXTEEN_TO_NINETEEN),
            new CardNetwork(644000, 659999, SIXTEEN_TO_NINETEEN),
            new CardNetwork(300000, 305999, range(14, 19)),
            new CardNetwork(309500, 309599, range(14, 19)),
            new CardNetwork(360000, 369999, range(14, 19)),
            new CardNetwork(380000, 399999, range(14, 19)),
            new CardNetwork(352800, 358999, SIXTEEN_TO_NINETEEN),
            new CardNetwork(620000, 629999, SIXTEEN_TO_NINETEEN),
            new CardNetwork(501800, 501899, range(13, 19)),
            new CardNetwork(502000, 502099, range(13, 19)),
            new CardNetwork(503800, 503899, range(13, 19)),
            new CardNetwork(589300, 589399, range(13, 19)),
            new CardNetwork(630400, 630499, range(13, 19)),
            new CardNetwork(675900, 675999, range(13, 19)),
            new CardNetwork(676100, 676399, range(13, 19)),
            new CardNetwork(220000, 220499, SIXTEEN_TO_NINETEEN));

    /** Whether some network issues {@code digits}-digit cards starting with {@code iin}. */
    static boolean issues(int iin, int digits) {
        for (CardNetwork network : ALL) {
            if (iin >= network.fromIin && iin <= network.toIin && (network.lengths >>> digits & 1) != 0) {
                return true;
            }
        }
        return false;
    }

    private static int bits(int length) {
        return 1 << length;
    }

    private static int range(int from, int to) {
        int mask = 0;
        for (int length = from; length <= to; length++) {
            mask |= bits(length);
        }
        return mask;
    }
}
