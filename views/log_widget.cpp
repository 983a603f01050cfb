#include "log_widget.h"

#include "log_filter_proxy_model.h"
#include "log_model.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTableView>
#include <QVBoxLayout>

namespace fxs {

LogWidget::LogWidget(std::shared_ptr<LogSink> sink, QWidget *parent)
    : QWidget(parent), m_model(new LogModel(std::move(sink), this)), m_proxy(new LogFilterProxyModel(this)),
      m_level(new QComboBox(this)), m_filter(new QLineEdit(this)), m_view(new QTableView(this))
{
    m_proxy->setSourceModel(m_model);

    m_level->setObjectName(QStringLiteral("logLevelCombo"));
    m_level->setToolTip(tr("Show records of this level and above"));
    for (auto level :
        {spdlog::level::trace, spdlog::level::debug, spdlog::level::info, spdlog::level::warn, spdlog::level::err})
        m_level->addItem(LogModel::levelName(level), int(level));
    connect(m_level, &QComboBox::currentIndexChanged, this,
        [this] { m_proxy->setMinimumLevel(m_level->currentData().toInt()); });

    m_filter->setObjectName(QStringLiteral("logFilterEdit"));
    m_filter->setPlaceholderText(tr("Filter logger or message"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &LogFilterProxyModel::setText);

    auto *clear = new QPushButton(tr("Clear"), this);
    clear->setObjectName(QStringLiteral("logClearButton"));
    connect(clear, &QPushButton::clicked, m_model, &LogModel::clear);

    m_view->setObjectName(QStringLiteral("logView"));
    m_view->setModel(m_proxy);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 4);
    m_view->horizontalHeader()->setSectionResizeMode(LogModel::TimeColumn, QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(LogModel::LevelColumn, QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(LogModel::LoggerColumn, QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setStretchLastSection(true);

    // Follow the newest record only while the view is already at the bottom, so reading older ones isn't
    // interrupted by new arrivals.
    QScrollBar *bar = m_view->verticalScrollBar();
    connect(m_proxy, &QAbstractItemModel::rowsAboutToBeInserted, this,
        [this, bar] { m_followNewest = bar->value() >= bar->maximum(); });
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, [this] {
        if (m_followNewest)
            m_view->scrollToBottom();
    });
    connect(m_proxy, &QAbstractItemModel::modelReset, this, [this] { m_view->scrollToBottom(); });

    auto *toolbarLayout = new QHBoxLayout;
    toolbarLayout->setContentsMargins(0, 0, 0, 0);
    toolbarLayout->addWidget(m_level);
    toolbarLayout->addWidget(m_filter, 1);
    toolbarLayout->addWidget(clear);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(toolbarLayout);
    layout->addWidget(m_view, 1);

    m_model->fetchPending();
    m_view->scrollToBottom();
}

} // namespace fxs
