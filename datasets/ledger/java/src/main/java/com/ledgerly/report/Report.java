package com.ledgerly.report;

import java.util.List;

/** A titled text report: title, underline, body lines, optional footer. */
public abstract class Report {
    private final String title;
    private AmountStyle style = AmountStyle.ACCOUNTING;

    protected Report(String title) {
        this.title = title;
    }

    public String getTitle() {
        return title;
    }

    public AmountStyle getStyle() {
        return style;
    }

    public void setStyle(AmountStyle style) {
        this.style = style;
    }

    public abstract List<String> bodyLines();

    /** The last line under the body; empty for no footer. */
    public String footer() {
        return "";
    }

    public String render() {
        StringBuilder sb = new StringBuilder();
        sb.append(title).append('\n');
        for (int i = 0; i < title.length(); i++) {
            sb.append('=');
        }
        sb.append('\n');
        for (String line : bodyLines()) {
            sb.append(line).append('\n');
        }
        String foot = footer();
        if (!foot.isEmpty()) {
            sb.append(foot).append('\n');
        }
        return sb.toString();
    }
}
