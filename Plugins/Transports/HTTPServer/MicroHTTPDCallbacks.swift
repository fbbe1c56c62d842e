import CMicroHTTPD
import CMicroHTTPDShim

/// The C function pointers handed to libmicrohttpd. Each is a closure without captures stored in
/// a type (not at top level, where Swift 6 would make it main-actor isolated and trap on an MHD
/// thread); the context pointers they receive carry the Swift objects.
enum MicroHTTPDCallbacks {
    /// `MHD_AccessHandlerCallback`: `context` is the daemon's `RequestDispatcher` (unretained: the
    /// server keeps it alive until the daemon is stopped); `*requestSlot` is the request's `RequestContext`.
    static let accessHandler: MHD_AccessHandlerCallback = {
        context, connection, url, method, version, uploadData, uploadDataSize, requestSlot in
        guard let context, let connection, let uploadDataSize, let requestSlot else { return .NO }
        return Unmanaged<RequestDispatcher>.fromOpaque(context).takeUnretainedValue().access(
            connection: connection, url: url, method: method, version: version, uploadData: uploadData,
            uploadDataSize: uploadDataSize, requestSlot: requestSlot)
    }

    /// `MHD_RequestCompletedCallback`: takes back the `RequestContext` retained by the access handler.
    static let requestCompleted: MHD_RequestCompletedCallback = { context, _, requestSlot, termination in
        guard let context, let requestSlot, let slot = requestSlot.pointee else { return }
        requestSlot.pointee = nil
        let request = Unmanaged<RequestContext>.fromOpaque(slot).takeRetainedValue()
        Unmanaged<RequestDispatcher>.fromOpaque(context).takeUnretainedValue().completed(request, termination: termination)
    }

    /// `MHD_NotifyConnectionCallback`: `context` is the `RequestDispatcher`; `*socketContext` holds the
    /// connection's `ConnectionRecord`, retained from its start to its close.
    static let notifyConnection: MHD_NotifyConnectionCallback = { context, connection, socketContext, event in
        guard let context, let connection, let socketContext else { return }
        let registry = Unmanaged<RequestDispatcher>.fromOpaque(context).takeUnretainedValue().connections
        switch event {
        case .CONNECTION_NOTIFY_STARTED:
            let record = registry.opened(
                descriptor: cmhd_connection_fd(connection),
                remoteAddress: cmhd_connection_client_address(connection).map(ListenAddress.numericHost) ?? "")
            socketContext.pointee = Unmanaged.passRetained(record).toOpaque()
        case .CONNECTION_NOTIFY_CLOSED:
            guard let stored = socketContext.pointee else { return }
            socketContext.pointee = nil
            registry.closed(Unmanaged<ConnectionRecord>.fromOpaque(stored).takeRetainedValue())
        default:
            break
        }
    }

    /// `MHD_OPTION_URI_LOG_CALLBACK`: the request line arrived. Returns nil, which leaves the
    /// request's slot empty for the access handler's first call.
    static let requestLineArrived: cmhd_uri_log_function = { _, _, connection in
        guard let connection, let stored = cmhd_connection_socket_context(connection) else { return nil }
        Unmanaged<ConnectionRecord>.fromOpaque(stored).takeUnretainedValue().requestLineArrived()
        return nil
    }

    /// `MHD_AcceptPolicyCallback`: refuses a connection (libmicrohttpd closes it at once) while as
    /// many as the server allows are open, in all or from the client's address.
    static let acceptPolicy: MHD_AcceptPolicyCallback = { context, address, _ in
        guard let context else { return .YES }
        let registry = Unmanaged<RequestDispatcher>.fromOpaque(context).takeUnretainedValue().connections
        return registry.admits(address: address.map(ListenAddress.numericHost) ?? "") ? .YES : .NO
    }

    /// `MHD_ContentReaderCallback` of an event stream: `context` is the `EventStream`.
    static let readEventStream: MHD_ContentReaderCallback = { context, _, buffer, capacity in
        guard let context, let buffer else { return -2 }
        return Unmanaged<EventStream>.fromOpaque(context).takeUnretainedValue().fill(buffer, capacity: capacity)
    }

    /// `MHD_ContentReaderFreeCallback` of an event stream: releases the retain taken when the response was made.
    static let releaseEventStream: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        Unmanaged<EventStream>.fromOpaque(context).release()
    }

    /// `MHD_KeyValueIteratorN`: appends one header field to the `RequestDispatcher.HeaderFields` at `context`.
    static let collectHeaderField: MHD_KeyValueIteratorN = { context, _, name, nameSize, value, valueSize in
        guard let context else { return .NO }
        RequestDispatcher.collectHeaderField(into: context, name: name, nameSize: nameSize, value: value, valueSize: valueSize)
        return .YES
    }

    /// `MHD_KeyValueIteratorN`: appends one query item to the `[HTTPQueryItem]` at `context`.
    static let collectQueryItem: MHD_KeyValueIteratorN = { context, _, name, nameSize, value, valueSize in
        guard let context else { return .NO }
        RequestDispatcher.collectQueryItem(into: context, name: name, nameSize: nameSize, value: value, valueSize: valueSize)
        return .YES
    }

    /// `cmhd_log_function`: `context` is the `DiagnosticsSink` of the server.
    static let log: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void = { context, message in
        guard let context, let message else { return }
        Unmanaged<DiagnosticsSink>.fromOpaque(context).takeUnretainedValue().receive(String(cString: message))
    }
}
