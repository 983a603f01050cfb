#include "patterns_widget.h"

#include "pattern_filter_proxy_model.h"
#include "pattern_tree_model.h"

#include "match/match_report.h"
#include "match/torch_check.h"

#include <QAbstractItemView>
#include <QAction>
#include <QComboBox>
#include <QCompleter>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSplitter>
#include <QStringListModel>
#include <QFileInfo>
#include <QTextBrowser>
#include <QToolButton>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>

namespace fxs {

namespace {
constexpr MatchStage kStages[] = {MatchStage::Generic, MatchStage::MutationStream, MatchStage::Retrace,
    MatchStage::Specific, MatchStage::ExtraCheck, MatchStage::Overlap};

QString esc(const std::string &s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

QString nodeLink(const std::string &name)
{
    QUrl url;
    url.setScheme(QStringLiteral("node"));
    url.setPath(QString::fromStdString(name));
    return QStringLiteral("<a href=\"%1\">%2</a>").arg(url.toString(QUrl::FullyEncoded).toHtmlEscaped(), esc(name));
}

QString detailRow(const QString &key, const QString &valueHtml)
{
    return QStringLiteral("<tr><td class=\"key\">%1</td><td>%2</td></tr>").arg(key.toHtmlEscaped(), valueHtml);
}

// Near-miss hints: what to change in search_fn, where, and how many candidates the changed pattern matches.
QString hintsHtml(const std::vector<NearMissHint> &hints)
{
    QString html;
    for (const auto &h : hints) {
        html += QStringLiteral("<p><span class=\"key\">hint</span> <b>would match %1 of %2 candidates</b> "
                               "<span class=\"key\">(verified by matching the changed pattern; found at %3)</span></p><ul>")
                    .arg(h.wouldMatch)
                    .arg(h.candidates)
                    .arg(esc(h.foundAt));
        for (const auto &c : h.changes) {
            html += QStringLiteral("<li>%1").arg(esc(c.what));
            if (c.line > 0)
                html += QStringLiteral("<br><span class=\"key\">%1:%2</span> <code>%3</code>")
                            .arg(QFileInfo(QString::fromStdString(c.file)).fileName().toHtmlEscaped())
                            .arg(c.line)
                            .arg(esc(c.code));
            html += QStringLiteral("</li>");
        }
        html += QStringLiteral("</ul>");
    }
    return html;
}

// One candidate's verdict in full, as the report holds it.
QString verdictHtml(const PatternReport &p, const Verdict &v)
{
    QString html
        = QStringLiteral("<p class=\"%1\"><b>%2 %3</b> at <b><code>%4</code></b> — %5</p>")
              .arg(v.accepted ? QStringLiteral("ok") : QStringLiteral("bad"),
                  v.accepted ? QStringLiteral("✓") : QStringLiteral("✗"), esc(p.name), esc(v.anchor),
                  v.accepted ? PatternsWidget::tr("accepted")
                             : PatternsWidget::tr("rejected at %1").arg(QLatin1String(matchStageName(v.stage))));
    html += QStringLiteral("<ul>");
    for (const std::string &reason : v.reasonTexts())
        html += QStringLiteral("<li>%1</li>").arg(esc(reason));
    html += QStringLiteral("</ul>");
    html += QStringLiteral("<table cellspacing=\"0\">");
    if (v.failure) {
        const MatchFailure &f = *v.failure;
        if (!f.patternNode.empty())
            html += detailRow(
                PatternsWidget::tr("pattern node"), QStringLiteral("<code>%1</code>").arg(esc(f.patternNode)));
        if (!f.graphNode.empty())
            html += detailRow(PatternsWidget::tr("graph node"),
                QStringLiteral("<span class=\"bad\">%1</span>").arg(nodeLink(f.graphNode)));
        if (!f.expected.empty())
            html += detailRow(PatternsWidget::tr("expected"), QStringLiteral("<code>%1</code>").arg(esc(f.expected)));
        if (!f.actual.empty())
            html += detailRow(PatternsWidget::tr("found"), QStringLiteral("<code>%1</code>").arg(esc(f.actual)));
        if (!f.path.empty()) {
            QStringList steps;
            for (const std::string &step : f.path) {
                // "args[1] mul_1": the slot, then the node it leads to.
                const size_t space = step.rfind(' ');
                steps << (space == std::string::npos
                        ? nodeLink(step)
                        : esc(step.substr(0, space)) + QLatin1Char(' ') + nodeLink(step.substr(space + 1)));
            }
            html += detailRow(PatternsWidget::tr("path"), steps.join(QStringLiteral(" → ")));
        }
        if (!f.externalUsers.empty()) {
            QStringList users;
            for (const std::string &u : f.externalUsers)
                users << nodeLink(u);
            html += detailRow(PatternsWidget::tr("external users"), users.join(QLatin1String(", ")));
        }
    }
    if (!v.overlapWith.empty())
        html += detailRow(PatternsWidget::tr("overlaps"), esc(v.overlapWith));
    if (!v.bindings.empty()) {
        QStringList bindings;
        for (const auto &[name, value] : v.bindings)
            bindings << QStringLiteral("<code>%1 = %2</code>").arg(esc(name), esc(value));
        html += detailRow(PatternsWidget::tr("bindings"), bindings.join(QLatin1String(", ")));
    }
    if (!v.nodes.empty()) {
        QStringList nodes;
        for (const std::string &n : v.nodes)
            nodes << nodeLink(n);
        html += detailRow(PatternsWidget::tr("nodes"), nodes.join(QLatin1String(", ")));
    }
    html += QStringLiteral("</table>");
    if (!v.checkTrace.empty()) {
        html += QStringLiteral("<p class=\"key\">%1</p><pre>").arg(PatternsWidget::tr("extra_check, line by line"));
        for (const std::string &line : v.checkTrace)
            html += esc(line) + QLatin1Char('\n');
        html += QStringLiteral("</pre>");
    }
    return html;
}
} // namespace

PatternsWidget::PatternsWidget(QWidget *parent)
    : QWidget(parent), m_model(new PatternTreeModel(this)), m_proxy(new PatternFilterProxyModel(this)),
      m_filter(new QLineEdit(this)), m_verdict(new QComboBox(this)), m_stage(new QComboBox(this)),
      m_summary(new QLabel(this)), m_filterMessage(new QLabel(this)), m_torchMessage(new QLabel(this)),
      m_numericsButton(new QToolButton(this)),
      m_completer(new QCompleter(this)),
      m_patternNames(new QStringListModel(this)), m_fileWarningsRow(new QWidget(this)),
      m_fileWarnings(new QLabel(m_fileWarningsRow)), m_tree(new QTreeView(this)), m_details(new QTextBrowser(this))
{
    m_proxy->setSourceModel(m_model);

    m_filter->setObjectName(QStringLiteral("patternFilter"));
    m_filter->setPlaceholderText(tr("Filter by pattern, anchor or reason; pattern:NAME for one pattern"));
    m_filter->setClearButtonEnabled(true);
    auto *clear = new QAction(m_filter);
    clear->setShortcut(Qt::Key_Escape);
    clear->setShortcutContext(Qt::WidgetShortcut);
    connect(clear, &QAction::triggered, m_filter, &QLineEdit::clear);
    m_filter->addAction(clear);

    // "pattern:" completes to the report's pattern names; the filter's other terms stay as typed.
    m_completer->setModel(m_patternNames);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setCompletionMode(QCompleter::PopupCompletion);
    m_completer->setWidget(m_filter);
    connect(m_filter, &QLineEdit::textEdited, this, &PatternsWidget::completePatternTerm);
    connect(m_completer, qOverload<const QString &>(&QCompleter::activated), this,
        &PatternsWidget::insertPatternCompletion);
    m_filterMessage->setObjectName(QStringLiteral("patternFilterMessage"));
    m_filterMessage->setWordWrap(true);
    m_filterMessage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_filterMessage->setContentsMargins(2, 0, 2, 0);
    m_filterMessage->hide();
    m_torchMessage->setObjectName(QStringLiteral("patternTorchMessage"));
    m_torchMessage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_torchMessage->setContentsMargins(2, 0, 2, 0);
    m_torchMessage->setTextFormat(Qt::PlainText);
    m_torchMessage->setWordWrap(true); // a long line must not widen the dock past the canvas
    m_torchMessage->hide();

    m_verdict->setObjectName(QStringLiteral("verdictFilter"));
    m_verdict->addItem(tr("All verdicts"), int(PatternFilterProxyModel::Verdicts::All));
    m_verdict->addItem(tr("✓ Accepted"), int(PatternFilterProxyModel::Verdicts::Accepted));
    m_verdict->addItem(tr("✗ Rejected"), int(PatternFilterProxyModel::Verdicts::Rejected));
    m_verdict->setToolTip(tr("Show accepted or rejected candidates only"));
    m_stage->setObjectName(QStringLiteral("stageFilter"));
    m_stage->addItem(tr("Any stage"), QString());
    for (MatchStage stage : kStages)
        m_stage->addItem(QLatin1String(matchStageName(stage)), QLatin1String(matchStageName(stage)));
    m_stage->setToolTip(tr("Show only the candidates decided at this stage"));

    m_summary->setObjectName(QStringLiteral("patternSummary"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setContentsMargins(2, 0, 2, 0);

    m_fileWarnings->setObjectName(QStringLiteral("patternFileWarnings"));
    m_fileWarnings->setWordWrap(true);
    m_fileWarnings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_fileWarnings->setContentsMargins(2, 0, 2, 0);
    m_fileWarningsRow->setObjectName(QStringLiteral("patternFileWarningsRow"));
    auto *warningIcon = new QLabel(m_fileWarningsRow);
    const int iconSize = fontMetrics().height();
    warningIcon->setPixmap(patternWarningIcon().pixmap(iconSize, iconSize));
    warningIcon->setAlignment(Qt::AlignTop);
    auto *warningRow = new QHBoxLayout(m_fileWarningsRow);
    warningRow->setContentsMargins(2, 2, 2, 2);
    warningRow->addWidget(warningIcon);
    warningRow->addWidget(m_fileWarnings, 1);
    m_fileWarningsRow->hide();

    m_tree->setObjectName(QStringLiteral("patternTree"));
    m_tree->setModel(m_proxy);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->setTextElideMode(Qt::ElideRight);
    m_tree->setWordWrap(false);
    m_tree->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_tree->header()->setStretchLastSection(true);
    m_tree->header()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_tree->header()->resizeSection(
        PatternTreeModel::NameColumn, fontMetrics().horizontalAdvance(QLatin1Char('m')) * 14);
    m_tree->header()->resizeSection(
        PatternTreeModel::VerdictColumn, fontMetrics().horizontalAdvance(QStringLiteral("10 of 10 accepted  ")));
    m_tree->header()->resizeSection(
        PatternTreeModel::TorchColumn, fontMetrics().horizontalAdvance(QStringLiteral("disagrees: not_an_anchor  ")));
    m_tree->setColumnHidden(PatternTreeModel::TorchColumn, true); // until a Python with torch checks the report
    m_tree->header()->resizeSection(
        PatternTreeModel::NumericsColumn, fontMetrics().horizontalAdvance(QStringLiteral("≠ differs  ")));
    m_tree->setColumnHidden(PatternTreeModel::NumericsColumn, true); // until the numerics are asked for
    m_numericsButton->setObjectName(QStringLiteral("numericsButton"));
    m_numericsButton->setText(tr("Numerics"));
    m_numericsButton->setToolTip(tr("Run each accepted candidate's fusion against the nodes it replaces on the same "
                                    "seeded inputs, and compare their outputs; each candidate an extra_check refused "
                                    "is fused alone as if the check had accepted (\"if fused\")"));
    connect(m_numericsButton, &QToolButton::clicked, this, &PatternsWidget::numericsRequested);

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->setSpacing(4);
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_verdict);
    bar->addWidget(m_stage);
    bar->addWidget(m_numericsButton);
    m_details->setObjectName(QStringLiteral("candidateDetails"));
    m_details->setOpenLinks(false);
    applyStyle();
    connect(m_details, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        if (url.scheme() == QLatin1String("node"))
            Q_EMIT nodeActivated(url.path());
    });
    auto *split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    split->addWidget(m_tree);
    split->addWidget(m_details);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addLayout(bar);
    layout->addWidget(m_filterMessage);
    layout->addWidget(m_torchMessage);
    layout->addWidget(m_fileWarningsRow);
    layout->addWidget(split, 1);
    layout->addWidget(m_summary);

    connect(m_filter, &QLineEdit::textChanged, this, &PatternsWidget::applyFilter);
    connect(m_verdict, qOverload<int>(&QComboBox::currentIndexChanged), this, &PatternsWidget::applyFilter);
    connect(m_stage, qOverload<int>(&QComboBox::currentIndexChanged), this, &PatternsWidget::applyFilter);
    // Reason rows carry one long sentence: they span the whole width instead of being cut at column one.
    connect(m_tree, &QTreeView::expanded, this, &PatternsWidget::spanChildRows);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex &current) {
        const QModelIndex source = m_proxy->mapToSource(current);
        const int pattern = source.data(PatternTreeModel::PatternIndexRole).toInt();
        const int candidate = source.isValid() ? source.data(PatternTreeModel::CandidateIndexRole).toInt() : -1;
        showDetails(source.isValid() ? pattern : -1, candidate);
        if (m_selecting || candidate < 0)
            return;
        Q_EMIT candidateSelected(pattern, candidate);
    });
    updateSummary();
}

PatternsWidget::~PatternsWidget() = default;

void PatternsWidget::setReport(std::shared_ptr<const MatchReport> report, qint64 milliseconds)
{
    m_matchMs = milliseconds;
    m_matching = false;
    m_model->setReport(std::move(report));
    QStringList names;
    for (const QString &name : m_proxy->patternNames())
        names << QStringLiteral("pattern:") + name;
    m_patternNames->setStringList(names);
    showDetails(-1, -1);
    // Patterns open to their candidates; a candidate opens to its reasons on demand.
    m_tree->expandToDepth(0);
    updateSummary();
    updateFileWarnings();
    updateTorchColumn();
    m_tree->setColumnHidden(PatternTreeModel::NumericsColumn, !m_model->numericsShown());
    m_numericsButton->setEnabled(true);
    applyFilter(); // the typed pattern may name another pattern, or none, in the new report
}

void PatternsWidget::setTorchRunning(const MatchReport *report)
{
    m_model->setTorchRunning(report);
    updateTorchColumn();
}

void PatternsWidget::setTorchResult(const MatchReport *report, std::shared_ptr<const TorchComparison> comparison)
{
    m_model->setTorchResult(report, std::move(comparison));
    updateTorchColumn();
}

void PatternsWidget::setTorchFailed(const MatchReport *report, const QString &message)
{
    if (!m_model->report() || report != m_model->report())
        return;
    m_model->setTorchFailed(report);
    updateTorchColumn();
    // One line, however long torch's traceback: the whole text is the tooltip.
    m_torchMessage->setText(tr("Torch check failed: %1").arg(message.section(QLatin1Char('\n'), 0, 0).trimmed()));
    m_torchMessage->setToolTip(message);
}

void PatternsWidget::setNumericsRunning(const MatchReport *report)
{
    m_model->setNumericsRunning(report);
    m_tree->setColumnHidden(PatternTreeModel::NumericsColumn, !m_model->numericsShown());
    m_numericsButton->setEnabled(!m_model->numericsShown() || report != m_model->report());
}

void PatternsWidget::setNumerics(const MatchReport *report, std::shared_ptr<const CandidateNumerics> numerics)
{
    m_model->setNumerics(report, std::move(numerics));
    m_tree->setColumnHidden(PatternTreeModel::NumericsColumn, !m_model->numericsShown());
    m_tree->resizeColumnToContents(PatternTreeModel::NumericsColumn); // "if fused: ≠ differs" is wider
    m_numericsButton->setEnabled(true);
    const auto [pattern, candidate] = currentCandidate();
    showDetails(pattern, candidate);
    updateSummary();
}

void PatternsWidget::updateTorchColumn()
{
    const PatternTreeModel::TorchState state = m_model->torchState();
    m_tree->setColumnHidden(PatternTreeModel::TorchColumn,
        state == PatternTreeModel::TorchState::Unavailable || state == PatternTreeModel::TorchState::Failed);
    m_torchMessage->setVisible(state == PatternTreeModel::TorchState::Failed);
    const TorchComparison *c = m_model->torchComparison();
    if (state != PatternTreeModel::TorchState::Done || !c)
        return;
    m_torchMessage->setToolTip({});
    const QString version = QString::fromStdString(c->torchVersion);
    if (!c->disagreements.empty()) {
        m_torchMessage->setText(tr("torch %1 disagrees with fxscope: %n difference(s) (hover for them)", nullptr,
            int(c->disagreements.size()))
                                    .arg(version));
        QStringList lines;
        for (const std::string &d : c->disagreements)
            lines << QString::fromStdString(d);
        m_torchMessage->setToolTip(lines.join(QLatin1Char('\n')));
        m_torchMessage->show();
    } else if (!c->acceptedAloneOnly.empty()) {
        // torch's pass registers the pattern files alone; here the built-ins run first and take some nodes.
        QStringList anchors;
        for (const std::string &a : c->acceptedAloneOnly)
            anchors << QString::fromStdString(a);
        m_torchMessage->setText(tr("torch %1 agrees; with the pattern files alone (as torch registers them) fxscope "
                                   "also accepts %2, which a built-in pattern takes first here")
                                    .arg(version, anchors.join(QLatin1String(", "))));
        m_torchMessage->show();
    }
}

void PatternsWidget::updateFileWarnings()
{
    const MatchReport *report = m_model->report();
    if (!report || report->warnings.empty()) {
        m_fileWarningsRow->hide();
        return;
    }
    // The first warnings inline, all of them in the tooltip.
    const size_t count = report->warnings.size();
    // Pattern files' load warnings and the graph's (a Dynamo-level graph under aten patterns).
    QString text = count == 1 ? tr("<b>1 match warning</b>") : tr("<b>%L1 match warnings</b>").arg(count);
    QString tip;
    for (size_t i = 0; i < report->warnings.size(); ++i) {
        const QString w = QString::fromStdString(report->warnings[i]).toHtmlEscaped();
        if (i < 3)
            text += QStringLiteral("<br>") + w;
        tip += QStringLiteral("<li>%1</li>").arg(w);
    }
    if (report->warnings.size() > 3)
        text += QStringLiteral("<br>") + tr("… %L1 more (hover)").arg(report->warnings.size() - 3);
    m_fileWarnings->setText(text);
    m_fileWarnings->setToolTip(QStringLiteral("<ul>%1</ul>").arg(tip));
    m_fileWarningsRow->show();
}

void PatternsWidget::showDetails(int pattern, int candidate)
{
    const MatchReport *report = m_model->report();
    if (!report || pattern < 0 || size_t(pattern) >= report->patterns.size()) {
        m_details->setHtml(QStringLiteral("<p class=\"key\">%1</p>").arg(tr("Select a candidate to see its verdict.")));
        return;
    }
    const PatternReport &p = report->patterns[size_t(pattern)];
    if (candidate < 0 || size_t(candidate) >= p.candidates.size()) {
        QString html = QStringLiteral("<p><b>%1</b> <span class=\"key\">%2</span></p>").arg(esc(p.name), esc(p.source));
        if (!p.pattern.empty())
            html += QStringLiteral("<pre>%1</pre>").arg(esc(p.pattern));
        if (!p.extraCheckSource.empty())
            html += QStringLiteral("<p class=\"key\">extra_check</p><pre>%1</pre>").arg(esc(p.extraCheckSource));
        html += hintsHtml(p.hints);
        m_details->setHtml(html);
        return;
    }
    QString html = verdictHtml(p, p.candidates[size_t(candidate)]);
    std::vector<NearMissHint> forCandidate; // the hints that would make this candidate match
    for (const auto &h : p.hints)
        if (std::find(h.matchedAnchors.begin(), h.matchedAnchors.end(), p.candidates[size_t(candidate)].anchor)
            != h.matchedAnchors.end())
            forCandidate.push_back(h);
    html += hintsHtml(forCandidate);
    if (const FusionNumerics *n = m_model->numerics(pattern, candidate))
        html += QStringLiteral("<p><span class=\"key\">numerics</span> <span class=\"%1\">%2</span></p>")
                    .arg(n->ran && n->equal ? QStringLiteral("ok") : QStringLiteral("bad"),
                        QString::fromStdString(n->text()).toHtmlEscaped());
    m_details->setHtml(html);
}

void PatternsWidget::applyStyle()
{
    // From the palette, so the light and dark themes both read well.
    const QPalette p = palette();
    const bool dark = p.color(QPalette::Window).lightness() < 128;
    m_details->document()->setDefaultStyleSheet(
        QStringLiteral("p { margin-top: 2px; margin-bottom: 2px; } ul { margin-left: 0px; -qt-list-indent: 1; } "
                       ".ok { color: %2; } .bad { color: %3; } "
                       "td.key, .key { color: %4; padding-right: 10px; white-space: nowrap; } "
                       "pre { background-color: %5; color: %6; } "
                       "a { color: %1; text-decoration: none; font-family: monospace; }")
            .arg(p.color(QPalette::Link).name(), dark ? QStringLiteral("#66bb6a") : QStringLiteral("#2e7d32"),
                dark ? QStringLiteral("#ef5350") : QStringLiteral("#c62828"),
                dark ? QStringLiteral("#90a4ae") : QStringLiteral("#607d8b"), p.color(QPalette::AlternateBase).name(),
                dark ? QStringLiteral("#ce93d8") : QStringLiteral("#4a148c")));
}

void PatternsWidget::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyStyle();
        const auto [pattern, candidate] = currentCandidate();
        showDetails(pattern, candidate);
    }
}

void PatternsWidget::setMatching(bool matching)
{
    m_matching = matching;
    updateSummary();
}

void PatternsWidget::spanChildRows(const QModelIndex &proxyParent)
{
    if (m_model->kind(m_proxy->mapToSource(proxyParent)) != PatternTreeModel::Kind::Candidate)
        return;
    for (int row = 0; row < m_proxy->rowCount(proxyParent); ++row)
        m_tree->setFirstColumnSpanned(row, proxyParent, true);
}

void PatternsWidget::applyFilter()
{
    m_proxy->setVerdicts(PatternFilterProxyModel::Verdicts(m_verdict->currentData().toInt()));
    m_proxy->setStage(m_stage->currentData().toString());
    // A "pattern:NAME" term keeps one pattern's candidates; the rest of the text filters as before.
    QStringList rest;
    QString pattern;
    for (const QString &term : m_filter->text().split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (term.startsWith(QLatin1String("pattern:"), Qt::CaseInsensitive))
            pattern = term.mid(int(qstrlen("pattern:")));
        else
            rest << term;
    }
    m_proxy->setPattern(pattern);
    m_proxy->setFilterText(rest.join(QLatin1Char(' ')));
    m_filterMessage->setText(m_proxy->patternProblem());
    m_filterMessage->setVisible(!m_proxy->patternProblem().isEmpty());
    if (m_proxy->isFiltering())
        m_tree->expandToDepth(0); // patterns the filter brought back open again
    updateSummary();
}

std::pair<int, int> PatternsWidget::patternTermAtCursor() const
{
    const QString text = m_filter->text();
    const int cursor = m_filter->cursorPosition();
    const int start = int(text.lastIndexOf(QLatin1Char(' '), cursor - 1)) + 1;
    int end = int(text.indexOf(QLatin1Char(' '), cursor));
    if (end < 0)
        end = int(text.size());
    if (!text.mid(start, end - start).startsWith(QLatin1String("pattern:"), Qt::CaseInsensitive))
        return {start, -1};
    return {start, end - start};
}

void PatternsWidget::completePatternTerm()
{
    const auto [start, length] = patternTermAtCursor();
    if (length < 0) {
        m_completer->popup()->hide();
        return;
    }
    const QString typed = m_filter->text().mid(start, m_filter->cursorPosition() - start);
    m_completer->setCompletionPrefix(typed);
    // Nothing to offer once the term is a whole name already.
    if (m_completer->completionCount() == 0
        || (m_completer->completionCount() == 1 && m_completer->currentCompletion() == typed)) {
        m_completer->popup()->hide();
        return;
    }
    // As wide as the longest name offered: the filter box is narrow in a docked panel.
    QAbstractItemView *popup = m_completer->popup();
    QRect under = m_filter->rect();
    under.setWidth(std::max(under.width(),
        popup->sizeHintForColumn(0) + popup->verticalScrollBar()->sizeHint().width() + 2 * popup->frameWidth()));
    m_completer->complete(under);
}

void PatternsWidget::insertPatternCompletion(const QString &completion)
{
    const auto [start, length] = patternTermAtCursor();
    if (length < 0)
        return;
    QString text = m_filter->text();
    text.replace(start, length, completion);
    m_filter->setText(text);
    m_filter->setCursorPosition(start + int(completion.size()));
}

void PatternsWidget::updateSummary()
{
    const MatchReport *report = m_model->report();
    if (m_matching) {
        m_summary->setText(tr("Matching…"));
        return;
    }
    if (!report) {
        m_summary->setText(tr("No match report"));
        return;
    }
    size_t candidates = 0, accepted = 0, hinted = 0;
    for (const auto &p : report->patterns) {
        candidates += p.candidates.size();
        accepted += p.acceptedCount();
        hinted += p.hints.empty() ? 0 : 1;
    }
    QString text
        = tr("%L1 patterns, %L2 candidates, %L3 accepted").arg(report->patterns.size()).arg(candidates).arg(accepted);
    if (hinted)
        text += tr(" · hints for %L1").arg(hinted);
    if (m_proxy->isFiltering())
        text += tr(" · %L1 shown").arg(m_proxy->visibleCandidateCount());
    if (m_matchMs >= 0)
        text += m_matchMs < 1 ? tr(" · matched in < 1 ms") : tr(" · matched in %L1 ms").arg(m_matchMs);
    if (const CandidateNumerics *numerics = m_model->numericsResult()) {
        const NumericsTally t = tallyNumerics(*numerics);
        text += t.differ ? tr(" · numerics: %L1 of %L2 differ").arg(t.differ).arg(t.fused)
                         : tr(" · numerics: %L1 equal").arg(t.fused);
        if (t.refused)
            text += tr(" · refused by extra_check, if fused: %L1 of %L2 differ").arg(t.refusedDiffer).arg(t.refused);
    }
    // A TorchAir pattern file: the verdicts are those of TorchAir's pass, after its graph passes.
    QString pipeline;
    if (report->pipeline == "torchair") {
        text += tr(" · in TorchAir's pipeline");
        pipeline = QString::fromStdString(report->pipelineWhy) + QLatin1Char('.');
        for (const PipelinePass &p : report->pipelinePasses) {
            const QString name = QString::fromStdString(p.name);
            if (!p.beforePatterns)
                pipeline += tr("\nafter: %1, run as a step once the patterns are applied").arg(name);
            else if (p.didNothing())
                pipeline += tr("\nbefore: %1, nothing to do on this graph").arg(name);
            else
                pipeline += tr("\nbefore: %1, removes %L2 and changes %L3 nodes (a step of its own)")
                                .arg(name)
                                .arg(p.removed.size())
                                .arg(p.added.size() + p.changed.size());
        }
    }
    m_summary->setText(text);
    m_summary->setToolTip(pipeline);
}

bool PatternsWidget::selectCandidate(int pattern, int candidate)
{
    const MatchReport *report = m_model->report();
    if (!report || pattern < 0 || size_t(pattern) >= report->patterns.size() || candidate < 0
        || size_t(candidate) >= report->patterns[size_t(pattern)].candidates.size())
        return false;
    const QModelIndex source = m_model->candidateIndex(pattern, candidate);
    QModelIndex proxy = m_proxy->mapFromSource(source);
    if (!proxy.isValid()) {
        // Hidden by the filter: show everything rather than select something invisible.
        const QSignalBlocker b1(m_filter), b2(m_verdict), b3(m_stage);
        m_filter->clear();
        m_verdict->setCurrentIndex(0);
        m_stage->setCurrentIndex(0);
        applyFilter();
        proxy = m_proxy->mapFromSource(source);
    }
    m_selecting = true;
    m_tree->expand(proxy.parent());
    m_tree->selectionModel()->setCurrentIndex(proxy, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_tree->scrollTo(proxy);
    m_selecting = false;
    showDetails(pattern, candidate); // also when the row was current already
    return true;
}

std::pair<int, int> PatternsWidget::currentCandidate() const
{
    const QModelIndex source = m_proxy->mapToSource(m_tree->currentIndex());
    if (!source.isValid() || m_model->kind(source) == PatternTreeModel::Kind::Pattern)
        return {-1, -1};
    return {source.data(PatternTreeModel::PatternIndexRole).toInt(),
        source.data(PatternTreeModel::CandidateIndexRole).toInt()};
}

void PatternsWidget::focusFilter()
{
    m_filter->setFocus(Qt::ShortcutFocusReason);
    m_filter->selectAll();
}

} // namespace fxs
