#pragma once
// The main window: menus, the graph picker, the graph canvas in the centre, the node list in a dock
// and the status bar. It is the only place
// that connects the Document's signals to views, and the views' requests back to the Document.

#include <QMainWindow>
#include <QPointer>

class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QMessageBox;
class QProgressBar;
class QTimer;
class QToolButton;
class QWidget;

namespace fxs {

class Document;
class GraphCanvas;
class NodeListWidget;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // `document` must outlive the window.
    explicit MainWindow(Document *document, QWidget *parent = nullptr);
    ~MainWindow() override;

    Document *document() const { return m_document; }
    NodeListWidget *nodeList() const { return m_nodeList; }
    GraphCanvas *canvas() const { return m_canvas; }
    QDockWidget *nodesDock() const { return m_nodesDock; }
    QComboBox *graphPicker() const { return m_graphPicker; }
    // True when the picker is shown: the file holds more than one graph.
    bool isGraphPickerShown() const;
    // The box reporting the last load error while it is open, else nullptr.
    QMessageBox *errorBox() const;

public Q_SLOTS:
    void openFileDialog();

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createMenus();
    void createStatusBar();
    void connectViews();
    void connectDocument();
    void restoreSettings();
    void saveSettings() const;
    void rebuildRecentMenu();

    void onLoadStarted(const QString &path);
    void onLoadingChanged(bool loading);
    void onFileLoaded(const QString &path);
    void onLoadFailed(const QString &path, const QString &message);
    void onCurrentGraphChanged(int index);
    void showError(const QString &title, const QString &message);
    void updateTitle();
    void updateStatus();

    Document *m_document;
    NodeListWidget *m_nodeList;
    GraphCanvas *m_canvas;
    QDockWidget *m_nodesDock;
    QWidget *m_graphRow;
    QComboBox *m_graphPicker;
    QLabel *m_graphCountLabel;
    QMenu *m_recentMenu = nullptr;

    QWidget *m_progress;
    QLabel *m_progressLabel;
    QProgressBar *m_progressBar;
    QToolButton *m_cancelButton;
    QTimer *m_progressDelay;
    QLabel *m_formatLabel;
    QLabel *m_graphLabel;
    QLabel *m_countsLabel;
    QLabel *m_warningsLabel;
    QPointer<QMessageBox> m_errorBox;
};

} // namespace fxs
