/// The handle a `Store.read` closure gets: typed queries inside one consistent snapshot.
///
/// - Important: valid only inside the closure it was passed to; using it afterwards is a programming error and
///   traps. It is not `Sendable`, so it cannot be handed to another task.
package class ReadTransaction {
  private let connection: SQLiteConnection
  let sealer: Sealer
  private var isOpen = true

  init(_ connection: SQLiteConnection, _ sealer: Sealer) {
    self.connection = connection
    self.sealer = sealer
  }

  /// The connection, checked to be inside its transaction.
  var db: SQLiteConnection {
    precondition(isOpen, "an AuthStorage transaction was used after its closure returned")
    return connection
  }

  func close() { isOpen = false }
}

/// The handle a `Store.write` closure gets: reads plus writes, all inside one BEGIN IMMEDIATE … COMMIT that is
/// rolled back if the closure throws.
package final class WriteTransaction: ReadTransaction {}
