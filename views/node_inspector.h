#pragma once
// The node inspector: everything fxscope knows about one node of the graph shown: op, target and schema,
// arguments with the nodes they name as links, users, value meta, source location with its code line,
// nn_module_stack, provenance after fusions and the remaining meta as JSON. It shows the node it is told
// to and reports the links the user follows.

#include <QWidget>

#include <memory>

class QTextBrowser;
class QUrl;

namespace fxs {

class Graph;
class Node;

class NodeInspector : public QWidget {
    Q_OBJECT
public:
    explicit NodeInspector(QWidget *parent = nullptr);
    ~NodeInspector() override;

    // The graph whose nodes are shown; the pointer keeps it alive. Clears the node shown.
    void setGraph(std::shared_ptr<const Graph> graph);
    // Shows the node called `name`; an empty or unknown name shows a hint instead. Emits nothing.
    void showNode(const QString &name);
    QString currentNode() const { return m_node; }

    QTextBrowser *browser() const { return m_browser; }
    // The link a click on `node`'s name in the page follows.
    static QUrl nodeUrl(const QString &node);

Q_SIGNALS:
    // The user clicked a link to another node (an argument or a user).
    void nodeActivated(const QString &name);

protected:
    // A palette change (light/dark theme) renders the page again in the new colours.
    void changeEvent(QEvent *event) override;

private:
    void applyStyle();
    QString render(const Node &node) const;

    std::shared_ptr<const Graph> m_graph;
    QString m_node;
    QTextBrowser *m_browser;
};

} // namespace fxs
