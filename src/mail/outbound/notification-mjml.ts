/**
 * The HTML notification mail in MJML, with Mustache tags for the message's parts. MJML
 * turns it into table-based HTML that mail clients lay out alike (Outlook included) once at
 * startup; each mail then only fills in the tags (see html-part.ts). `{{{messageHtml}}}`
 * is already escaped or rendered Markdown; every other value is escaped by Mustache.
 * Sections wrapped in `<mj-raw>{{#x}}</mj-raw>` … `{{/x}}` appear only when the message has x.
 */
export const notificationMjml = `<mjml>
  <mj-head>
    <mj-title>{{subject}}</mj-title>
    <mj-preview>{{preview}}</mj-preview>
    <mj-attributes>
      <mj-all font-family="-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" />
      <mj-text font-size="15px" line-height="1.5" color="#1f2933" padding="0 24px" />
      <mj-button background-color="#338574" color="#ffffff" font-size="14px" border-radius="6px" inner-padding="10px 18px" padding="6px 24px" align="left" />
    </mj-attributes>
    <mj-style>
      .message p { margin: 0 0 10px 0; }
      .message pre, .message code { font-family: Menlo, Consolas, monospace; font-size: 13px; background: #f1f3f5; }
      .message pre { padding: 8px; white-space: pre-wrap; }
      .message a { color: #338574; }
      .chip { display: inline-block; background: #e6f2ef; color: #1d5c4f; border-radius: 10px; padding: 1px 9px; margin: 0 4px 4px 0; font-size: 13px; }
    </mj-style>
  </mj-head>
  <mj-body background-color="#eef1f3" width="600px">
    <mj-section padding="24px 0 8px 0">
      <mj-column>
        <mj-text font-size="13px" color="#52606d" padding="0 24px">{{topicName}}</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" border-radius="10px" padding="20px 0">
      <mj-column>
        <mj-raw>{{#priority}}</mj-raw>
        <mj-text padding="0 24px 8px 24px" font-size="12px" font-weight="600"><span style="color:{{color}}">PRIORITY: {{name}}</span></mj-text>
        <mj-raw>{{/priority}}</mj-raw>
        <mj-raw>{{#heading}}</mj-raw>
        <mj-text font-size="20px" font-weight="600" line-height="1.3" padding="0 24px 10px 24px">{{heading}}</mj-text>
        <mj-raw>{{/heading}}</mj-raw>
        <mj-text css-class="message">{{{messageHtml}}}</mj-text>
        <mj-raw>{{#hasWords}}</mj-raw>
        <mj-text padding="12px 24px 0 24px">{{#words}}<span class="chip">{{.}}</span>{{/words}}</mj-text>
        <mj-raw>{{/hasWords}}</mj-raw>
        <mj-raw>{{#attachment}}</mj-raw>
        <mj-text padding="12px 24px 0 24px" font-size="14px">&#128206; <a href="{{url}}" style="color:#338574">{{name}}</a>{{#size}} <span style="color:#7b8794">({{size}})</span>{{/size}}</mj-text>
        <mj-raw>{{/attachment}}</mj-raw>
        <mj-raw>{{#hasButtons}}</mj-raw>
        <mj-spacer height="10px" />
        <mj-raw>{{/hasButtons}}</mj-raw>
        <mj-raw>{{#buttons}}</mj-raw>
        <mj-button href="{{url}}">{{label}}</mj-button>
        <mj-raw>{{/buttons}}</mj-raw>
      </mj-column>
    </mj-section>
    <mj-section padding="12px 0 24px 0">
      <mj-column>
        <mj-text font-size="12px" color="#7b8794">This message was sent by {{senderIp}} at {{sentAt}} via <a href="{{topicUrl}}" style="color:#7b8794">{{topicUrl}}</a></mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>
`;
